"""The electromagnetic analyses as registered families (core/registry.py): each returns a Solution with
the named fields of em/field_catalogue.py and its own results keys as extras."""

from typing import Any

from fieldline_engine.core.solution import Solution
from fieldline_engine.em.option_support import check_options
from fieldline_engine.em.routing import em_solver_for
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.protocol import ProgressSpan


class EmAnalysis:
    """Static, conduction and quasi-static fields, or full-wave frequency domain (em/routing.py)."""

    analysis_type = "em"

    def check(self, config: dict[str, Any]) -> list[str]:
        return check_options(config, em_solver_for(config))

    def distributable(self, config: dict[str, Any]) -> bool:
        """MPI ranks share a full-wave run's independent (frequency, port) solves (docs/distributed.md); the
        adaptive sweep's ranks enter too and stop once the sweep type is known."""
        return em_solver_for(config) == "fullwave"

    def supports_adaptive(self, config: dict[str, Any]) -> bool:
        """Adaptive refinement (core/adaptive/): flux recovery in the static regimes, the curl–curl
        residual with the max |ΔS| rule for full-wave."""
        return em_solver_for(config) in ("static", "fullwave")

    def adaptive_pass_config(self, config: dict[str, Any]) -> dict[str, Any] | None:
        if em_solver_for(config) != "fullwave":
            return None
        from fieldline_engine.em.adaptive_estimates import fullwave_pass_config
        from fieldline_engine.em.fullwave.sweep import sweep_frequencies

        return fullwave_pass_config(config, sweep_frequencies(config)[0])

    def solve(self, model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
        if em_solver_for(config) == "fullwave":
            from fieldline_engine.em.fullwave.job import solve_fullwave_job

            return solve_fullwave_job(model, config)
        from fieldline_engine.em.em_static_job import solve_em_static

        return solve_em_static(model, config)


class EmTimeAnalysis:
    analysis_type = "em-time"

    def check(self, config: dict[str, Any]) -> list[str]:
        return check_options(config, "em-time")

    def supports_adaptive(self, config: dict[str, Any]) -> bool:
        """Every pass runs the whole transient; flux recovery of E and H at sampled instants, each element's
        largest over the history (em/transient/history_estimate.py)."""
        return True

    def solve(self, model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
        from fieldline_engine.em.transient.job import solve_transient_job

        solution = solve_transient_job(model, config)
        # The time-domain panel lists the config fields this run left out next to its own notes.
        tdi = solution.extras.get("time_domain_info")
        if isinstance(tdi, dict):
            tdi["notes"] = [*tdi.get("notes", []), *self.check(config)]
        return solution


class EmEigenAnalysis:
    analysis_type = "em-eigen"

    def check(self, config: dict[str, Any]) -> list[str]:
        return check_options(config, "em-eigen")

    def supports_adaptive(self, config: dict[str, Any]) -> bool:
        """The curl–curl residual of each mode; the passes stop on the change of the modes' frequencies."""
        return True

    def solve(self, model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
        from fieldline_engine.em.fullwave.eigen_job import solve_eigen_job

        return solve_eigen_job(model, config)
