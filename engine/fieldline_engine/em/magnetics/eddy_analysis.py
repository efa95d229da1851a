"""`analysisType: "eddy-current"` as a registered family analysis (core/registry.py)."""

from typing import Any

from fieldline_engine.core.solution import Solution
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.protocol import ProgressSpan


class EddyCurrentAnalysis:
    """Time-harmonic magnetic field with induced currents in conductors (docs/magnetics.md)."""

    analysis_type = "eddy-current"

    def check(self, config: dict[str, Any]) -> list[str]:
        from fieldline_engine.em.magnetics.eddy_job import eddy_frequency, eddy_order

        eddy_frequency(config)
        eddy_order(config)
        return []

    def supports_adaptive(self, config: dict[str, Any]) -> bool:
        """Flux recovery of the complex B weighted by 1/μ (em/adaptive_estimates.py eddy_estimate)."""
        return True

    def solve(self, model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
        from fieldline_engine.em.magnetics.eddy_job import solve_eddy_job

        return solve_eddy_job(model, config, progress)
