"""Named fields and quantities of a thermal run (docs/thermal.md): `temperature` (K), `heat_flux` (W/m²,
q = −k∇T) and `temperature_gradient` (K/m) at the vertices; heat flow per condition, the energy balance, the
extremes with their locations; a transient run adds its probe history and time frames."""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.fields import Field, Frames
from fieldline_engine.core.solution import Solution
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.post.vertex_fields import VertexSampler
from fieldline_engine.thermal.heat import HeatProblem
from fieldline_engine.thermal.solve import ThermalRun


def _where(model: TetModel, i: int) -> list[float]:
    return [float(c) for c in model.vertices[i] / model.unit_scale]


def thermal_fields(model: TetModel, problem: HeatProblem, run: ThermalRun) -> list[Field]:
    t = run.temperature.vec.FV().NumPy()[: model.nv].copy()  # H1 vertex DOFs are the nodal values
    gradient = VertexSampler(problem.mesh)(ng.grad(run.temperature))
    flux = VertexSampler(problem.mesh)(-problem.k * ng.grad(run.temperature))
    return [
        Field("temperature", "Temperature", "K", "scalar", t),
        Field("heat_flux", "Heat flux", "W/m^2", "vector", flux),
        Field("temperature_gradient", "Temperature gradient", "K/m", "vector", gradient),
    ]


def condition_names(problem: HeatProblem) -> dict[str, tuple[str, str]]:
    s = problem.setup
    out: dict[str, tuple[str, str]] = {}
    for kind, items in (
        ("temperature", s.fixed),
        ("heat flux", s.fluxes),
        ("convection", s.convection),
        ("radiation", s.radiation),
    ):
        for c in items:
            out[c.label] = (c.name, kind)
    return out


def thermal_quantities(
    model: TetModel, problem: HeatProblem, run: ThermalRun, t: np.ndarray
) -> dict[str, Any]:
    names = condition_names(problem)
    hot, cold = int(np.argmax(t)), int(np.argmin(t))
    q: dict[str, Any] = {
        "max_temperature_K": float(t[hot]),
        "max_temperature_location": _where(model, hot),
        "min_temperature_K": float(t[cold]),
        "min_temperature_location": _where(model, cold),
        "heat_flows": [
            {"condition": names[label][0], "kind": names[label][1], "heat_flow_W": w}
            for label, w in run.flows.items()
        ],
        "source_power_W": problem.source_power(),
    }
    if run.energy_in:
        # Transient: energy in over the run = energy stored.
        total_in = float(sum(run.energy_in.values()))
        scale = max(abs(total_in), abs(run.stored), *(abs(v) for v in run.energy_in.values()), 1e-300)
        q["energy_in_J"] = total_in
        q["energy_stored_J"] = run.stored
        q["energy_balance_error"] = abs(total_in - run.stored) / scale
    else:
        total_in = q["source_power_W"] + float(sum(run.flows.values()))
        scale = max(q["source_power_W"], *(abs(w) for w in run.flows.values()), 1e-300)
        q["energy_balance_error"] = abs(total_in) / scale
    return q


def thermal_solution(model: TetModel, problem: HeatProblem, run: ThermalRun, order: int) -> Solution:
    fields = thermal_fields(model, problem, run)
    out = Solution(
        solver_info={
            "matrix_size": int(problem.fes.ndof),
            "non_zeros": run.non_zeros,
            "analysis": "thermal-time" if run.frames else "thermal",
            "element_order": order,
            **run.report.as_info(),
        }
    )
    if problem.setup.radiation:
        out.solver_info["radiation_newton_iterations"] = run.newton_iterations
    for f in fields:
        out.add_field(f)
    out.quantities = thermal_quantities(model, problem, run, fields[0].values)
    if run.frames:
        out.animation = Frames(
            axis="time", values=run.frame_times, frames=[{"temperature": f} for f in run.frames]
        )
    return out
