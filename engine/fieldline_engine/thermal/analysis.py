"""`analysisType: "thermal"` (steady) and `"thermal-time"` (transient) as registered families."""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.adaptive.estimate import recovery_estimate, recovery_indicators
from fieldline_engine.core.adaptive.history import HistoryEstimate
from fieldline_engine.core.adaptive.settings import adaptive_requested
from fieldline_engine.core.given_fields import fields_from_info, given_field, vertex_values
from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.core.probes import probe_points, probes_inside
from fieldline_engine.core.solution import Solution
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.curving import curve_mesh
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.protocol import ProgressSpan
from fieldline_engine.thermal.heat import HeatProblem
from fieldline_engine.thermal.induction import eddy_current_solution, induction_source
from fieldline_engine.thermal.joule import conduction_solution, joule_source
from fieldline_engine.thermal.results import thermal_solution
from fieldline_engine.thermal.setup import (
    DEFAULT_INITIAL_TEMPERATURE,
    thermal_materials,
    thermal_setup,
    time_stepping,
)
from fieldline_engine.thermal.solve import solve_steady, solve_transient

NOT_USED = ("frequency", "useWavePorts", "useRadialPML", "calculateSParameters", "impedanceConditions")
UNDETERMINED = (
    "The temperature of this steady model is undetermined: heat can leave nowhere. Add a fixed temperature, "
    "convection or radiation on some faces (faces without a condition are insulated)."
)


def element_order(config: dict[str, Any]) -> int:
    order = int(config.get("meshOrder", 1))
    if order not in (1, 2, 3):
        raise InvalidInput("Element order must be 1, 2 or 3.")
    return order


class ThermalAnalysis:
    analysis_type = "thermal"
    transient = False

    def check(self, config: dict[str, Any]) -> list[str]:
        ignored = [k for k in NOT_USED if config.get(k)]
        return [f"A thermal run does not use {', '.join(ignored)}; they were left out."] if ignored else []

    def solve(self, model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
        materials = thermal_materials(model, config)
        setup = thermal_setup(model, config)
        stepping = time_stepping(config) if self.transient else None
        initial_field = _initial_field(model, config, self.transient)
        if not self.transient and not setup.determined:
            raise InvalidInput(UNDETERMINED)
        order = element_order(config)
        conduction = (
            conduction_solution(model, config, progress.sub(0.0, 0.3)) if setup.joule_heating else None
        )
        induction = (
            eddy_current_solution(model, config, progress.sub(0.0, 0.3)) if setup.induction_heating else None
        )
        progress(0.3 if conduction or induction else 0.05, "Building mesh")
        mesh = build_ngsolve_mesh(model, setup.face_labels)
        curving = curve_mesh(mesh, model, config, order)
        probes, probe_warnings = probes_inside(mesh, model, probe_points(model, config))
        heat = [joule_source(mesh, model, conduction)] if conduction else []
        heat += [induction_source(mesh, model, induction)] if induction else []
        problem = HeatProblem(mesh, materials, setup, order, sum(heat[1:], heat[0]) if heat else None)
        options = SolverOptions.from_config(config)
        span = progress.sub(0.35, 0.9)
        if stepping is None:
            run = solve_steady(
                problem, options, float(config.get("initialTemperature", DEFAULT_INITIAL_TEMPERATURE)), span
            )
        else:
            frames = int(config.get("animationFrames", 50))
            history = _history_estimator(model, mesh, problem, order, stepping, frames, config)
            run = solve_transient(
                problem,
                stepping,
                options,
                frames,
                probes,
                model.nv,
                span,
                initial_field=initial_field,
                on_frame=history[1] if history else None,
            )
        solution = thermal_solution(model, problem, run, order)
        solution.solver_info["curved_geometry"] = curving
        solution.warnings.extend(probe_warnings)
        if stepping is not None:
            solution.solver_info.update(
                time_scheme=stepping.scheme, time_step=stepping.time_step, steps=stepping.steps
            )
            solution.extras["thermal_history"] = {
                "times": run.times,
                "scheme": stepping.scheme,
                "initial_temperature": stepping.initial if initial_field is None else None,
                "initial_state": "uniform" if initial_field is None else "fields_from",
                "probes": [
                    {
                        "name": name,
                        "point": [c / model.unit_scale for c in point],
                        "temperature": run.probes[name],
                    }
                    for name, point in probes.items()
                ],
                "units": {"time": "s", "temperature": "K"},
            }
        elif probes:
            solution.quantities["probes"] = [
                {
                    "name": name,
                    "point": [c / model.unit_scale for c in point],
                    "temperature_K": float(run.temperature(mesh(*point))),
                }
                for name, point in probes.items()
            ]
        if conduction is not None:
            _add_coupled(model, solution, conduction, "conduction")
        if induction is not None:
            _add_coupled(model, solution, induction, "induction")
        sources = fields_from_info(config)
        if sources:
            solution.solver_info["fields_from"] = sources
        if stepping is not None:
            # The hottest any vertex got at a saved frame: a transient's peak, which may come before the end.
            solution.quantities["peak_temperature_K"] = float(max(float(np.max(f)) for f in run.frames))
            if history is not None:
                solution.error_estimate = history[0].estimate(model.nt, problem.fes.ndof, "max_temperature_K")
        if stepping is None and adaptive_requested(config):
            # Flux recovery of ∇T weighted by k: the energy-norm error of the temperature.
            solution.error_estimate = recovery_estimate(
                model, mesh, ng.grad(run.temperature), problem.k, order, problem.fes.ndof
            )
            solution.error_estimate.default_quantity = "max_temperature_K"
        return solution

    def supports_adaptive(self, config: dict[str, Any]) -> bool:
        """Steady: flux recovery of ∇T weighted by k. Transient: the same at the saved frames, each element's
        largest over the history (core/adaptive/history.py); every pass runs the whole transient again."""
        return True


class ThermalTimeAnalysis(ThermalAnalysis):
    analysis_type = "thermal-time"
    transient = True


def _history_estimator(model, mesh, problem, order, stepping, frames, config):
    """For an adaptive transient pass: the history estimate and the callback the time loop calls at each
    saved frame (flux recovery of ∇T weighted by k at that instant); None otherwise."""
    if not adaptive_requested(config):
        return None
    history = HistoryEstimate()
    count = len(range(0, stepping.steps, max(1, stepping.steps // max(1, frames))))
    seen = [0]

    def on_frame(state: ng.GridFunction) -> None:
        k = seen[0]
        seen[0] += 1
        if HistoryEstimate.wants(k, count) or k >= count - 1:
            history.add(*recovery_indicators(model, mesh, ng.grad(state), problem.k, order))

    return history, on_frame


def _initial_field(model: TetModel, config: dict[str, Any], transient: bool):
    """A transient's start from another run's `temperature` (fieldsFrom); a steady run takes none."""
    given = given_field(config, "temperature")
    if given is None:
        return None
    if not transient:
        raise InvalidInput(
            "A steady thermal run does not start from a temperature: fieldsFrom with temperature is the "
            "initial state of a transient run (thermal-time, or thermal with transient)."
        )
    values = vertex_values(given, model.nv, "Initial temperature")
    if np.any(values <= 0):
        raise InvalidInput("Initial temperature: the given temperature field has values at or below 0 K.")
    return values


def _add_coupled(model: TetModel, solution: Solution, source: Solution, name: str) -> None:
    """Joule or induction heating: the EM run's fields and figures (resistance, power, losses) join the
    thermal ones; its solver facts go under solver_info[name]. Fields sized for an air region the EM run
    added around the model stay out: the thermal results describe the model."""
    sizes = {"vertex": model.nv, "cell": model.nt}
    for f in source.fields:
        if f.name not in solution.fields and f.size == sizes[f.location]:
            solution.add_field(f)
    for key, value in source.quantities.items():
        solution.quantities.setdefault(key, value)
    solution.solver_info[name] = {k: v for k, v in source.solver_info.items() if k != "systems"}
