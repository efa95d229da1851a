"""`analysisType: "magnetostatic"` as a registered family (docs/magnetics.md)."""

# The job modules at the top, not in solve(): the engine's warm-up imports every family (registry.load_all),
# so a forked job finds them imported (≈ 0.02 CPU s of a 16 k-unknown toroid job's ≈ 0.5 s, bench/magnetics).
from typing import Any

from fieldline_engine.core.solution import Solution
from fieldline_engine.em.magnetics.job import air_for_adaptive_passes, solve_magnetostatic_job
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.protocol import ProgressSpan

NOT_USED = ("useWavePorts", "useRadialPML", "calculateSParameters", "impedanceConditions")


class MagnetostaticAnalysis:
    analysis_type = "magnetostatic"

    def check(self, config: dict[str, Any]) -> list[str]:
        ignored = [k for k in NOT_USED if config.get(k)]
        notes = (
            [f"A magnetostatic run does not use {', '.join(ignored)}; they were left out."] if ignored else []
        )
        if float(config.get("frequency") or 0) > 0:
            notes.append(
                "A magnetostatic run is DC: the frequency is not used (eddy currents need 'eddy-current')."
            )
        return notes

    def supports_adaptive(self, config: dict[str, Any]) -> bool:
        """Flux recovery of B weighted by 1/μ (em/adaptive_estimates.py)."""
        return True

    def adaptive_model(
        self, model: TetModel, config: dict[str, Any], progress: ProgressSpan
    ) -> tuple[TetModel, dict[str, Any]] | None:
        """A bare device's air is meshed once, before the passes, and refined with the device."""
        progress(0.0, "Meshing the air around the model")
        return air_for_adaptive_passes(model, config)

    def adaptive_results(
        self, model: TetModel, solution: Solution, config: dict[str, Any]
    ) -> tuple[TetModel, Solution]:
        """The results show the refined device, as a run without refinement shows the device."""
        from fieldline_engine.em.magnetics.adaptive_air import device_results

        return device_results(model, solution, config)

    def solve(self, model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
        return solve_magnetostatic_job(model, config, progress)
