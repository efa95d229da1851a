"""The `eddy-current` analysis on an uploaded model: config → eddy-current solve → named fields and quantities.

Phasors are peak values with e^{+jωt} (DESIGN.md §3): a field's `data` is its value at ωt = 0, `imag` the
imaginary part, and the value at ωt = 90° is −imag. Time averages use the peak: loss density |J|²/2σ,
energy ¼ Re ∫ H·B*.
"""

import math
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.core.materials import MaterialTable, material_table
from fieldline_engine.core.solution import Solution
from fieldline_engine.em.constants import MU0
from fieldline_engine.em.field_catalogue import em_field, em_solution
from fieldline_engine.em.magnetics.eddy_current import EddySolution, solve_eddy_current
from fieldline_engine.em.magnetics.solid_conductors import massive_conductors, read_solid_conductors
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh, per_tetrahedron
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.post.vertex_fields import vector_at_vertices
from fieldline_engine.protocol import ProgressSpan

MATERIAL_DEFAULTS = {"relativePermeability": 1.0, "conductivity": 0.0}


def eddy_frequency(config: dict[str, Any]) -> float:
    frequency = float(config.get("frequency") or 0.0)
    if not math.isfinite(frequency) or frequency <= 0:
        raise InvalidInput(
            "An eddy-current analysis needs a frequency above 0 Hz (the coils' and conductors' current)."
        )
    return frequency


def eddy_order(config: dict[str, Any]) -> int:
    order = int(config.get("meshOrder", 2))
    if order not in (1, 2, 3):
        raise InvalidInput("Element order must be 1, 2 or 3.")
    return order


def solve_eddy_job(model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
    frequency = eddy_frequency(config)
    omega = 2 * math.pi * frequency
    order = eddy_order(config)
    table = material_table(model, config, MATERIAL_DEFAULTS)
    table.require_positive("relativePermeability")
    solids = read_solid_conductors(model, config)
    if not solids and not config.get("coils"):
        raise InvalidInput(
            "An eddy-current analysis needs a source: a coil (coils) or a solid conductor fed a current (solidConductors)."
        )
    conductivity = {b: table.value(b, "conductivity") for b in range(len(model.region_names))}
    conductivity = {b: s for b, s in conductivity.items() if s > 0}
    for spec in solids:
        if spec.body not in conductivity:
            raise InvalidInput(
                f"Solid conductor '{spec.name}' has no conductivity: give its body one above 0 (bodyMaterials)."
            )
    progress(0.02, "Building mesh")
    mesh = build_ngsolve_mesh(model)
    nu = table.coefficient(mesh, "relativePermeability")
    nu = 1.0 / (MU0 * nu)
    progress(0.05, "Solid conductors: unit-voltage fields")
    conductors = massive_conductors(mesh, model, solids)
    sol = solve_eddy_current(
        mesh,
        nu,
        conductivity,
        None,
        conductors,
        omega,
        order,
        SolverOptions.from_config(config),
        progress.sub(0.08, 0.85),
    )
    progress(0.88, "Sampling fields")
    return _results(model, mesh, sol, table, conductivity, solids, frequency, order)


def _results(
    model: TetModel,
    mesh: ng.Mesh,
    sol: EddySolution,
    table: MaterialTable,
    conductivity: dict[int, float],
    solids: list,
    frequency: float,
    order: int,
) -> Solution:
    degree = max(1, order - 1)
    b_v = vector_at_vertices(mesh, sol.b_field, True, degree)
    h_v = vector_at_vertices(mesh, sol.h_field, True, degree)
    j_total = sol.induced_current_density
    j_v = vector_at_vertices(mesh, j_total, True, degree)
    loss_cell, loss_by_body = _losses(model, mesh, sol, conductivity)

    quantities: dict[str, Any] = {
        "energy_J": sol.energy,
        "loss_W": {model.region_names[b]: w for b, w in loss_by_body.items()},
        "total_loss_W": float(sum(loss_by_body.values())),
    }
    if solids:
        conductors: dict[str, Any] = {}
        for spec, u, i in zip(solids, sol.voltages, sol.currents, strict=True):
            z = u / i
            conductors[spec.name] = {
                "current_A": abs(i),
                "voltage_V": abs(u),
                "voltage_phase_deg": math.degrees(np.angle(u)),
                "resistance_ohm": z.real,
                "reactance_ohm": z.imag,
                "inductance_H": z.imag / (2 * math.pi * frequency),
                "power_W": 0.5 * (u * np.conj(i)).real,
            }
        quantities["solid_conductors"] = conductors
    solver_info: dict[str, Any] = {
        "elements": model.nt,
        "matrix_size": sol.ndof,
        "frequency": frequency,
        "analysis": "eddy-current",
        "element_order": order,
        "formulation": "A* (A–φ with φ absorbed in the conductors), HCurl",
        **sol.report.as_info(),
    }
    if sol.report.iterations and not sol.report.converged:
        solver_info["warnings"] = [
            "The eddy-current solve stopped at maxIterations before reaching the tolerance; results may be inaccurate."
        ]
    fields = [
        em_field("magnetic_flux_density", b_v),
        em_field("magnetic_field", h_v),
        em_field("current_density", j_v),
        em_field("loss_density", loss_cell),
    ]
    return em_solution(fields, {"solver_info": solver_info, "quantities": quantities})


def _losses(
    model: TetModel, mesh: ng.Mesh, sol: EddySolution, conductivity: dict[int, float]
) -> tuple[np.ndarray, dict[int, float]]:
    """Time-averaged ohmic loss |J|²/2σ per tetrahedron (W/m³) and per body (W)."""
    inv_sigma = mesh.MaterialCF({f"body{b}": 1.0 / s for b, s in conductivity.items()}, default=0.0)
    j = sol.induced_current_density
    density = 0.5 * (ng.InnerProduct(j.real, j.real) + ng.InnerProduct(j.imag, j.imag)) * inv_sigma
    power = ng.Integrate(density, mesh, element_wise=True).NumPy()
    volume = ng.Integrate(ng.CF(1.0), mesh, element_wise=True).NumPy()
    per_tet = per_tetrahedron(model, power / volume)
    power_tet = per_tetrahedron(model, power)
    by_body = {b: float(power_tet[model.regions == b].sum()) for b in sorted(conductivity)}
    return per_tet, by_body
