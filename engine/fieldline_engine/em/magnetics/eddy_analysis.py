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

    def adaptive_model(
        self, model: TetModel, config: dict[str, Any], progress: ProgressSpan
    ) -> tuple[TetModel, dict[str, Any]] | None:
        """A bare device's air is meshed once, before the passes, and refined with the device."""
        from fieldline_engine.em.magnetics.eddy_job import eddy_air_for_adaptive_passes

        progress(0.0, "Meshing the air around the model")
        return eddy_air_for_adaptive_passes(model, config)

    def adaptive_results(
        self, model: TetModel, solution: Solution, config: dict[str, Any]
    ) -> tuple[TetModel, Solution]:
        """The results show the refined device, as a run without refinement shows the device."""
        from fieldline_engine.em.magnetics.adaptive_air import device_results

        return device_results(model, solution, config)

    def solve(self, model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
        from fieldline_engine.em.magnetics.eddy_job import solve_eddy_job

        return solve_eddy_job(model, config, progress)
