"""The `em` analysis at frequency 0 (electrostatics or steady conduction) and the quasi-static regime at
frequency > 0, on the uploaded tetrahedral model; writes results in the spec 001 §3 shape."""

from typing import Any

import ngsolve as ng

from fieldline_engine import protocol
from fieldline_engine.core.adaptive.settings import adaptive_requested
from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.core.solution import Solution
from fieldline_engine.em.adaptive_estimates import static_estimate
from fieldline_engine.em.boundary_conditions import ResolvedBoundaries, resolve_boundaries
from fieldline_engine.em.conduction import solve_steady_conduction
from fieldline_engine.em.electrostatics import solve_electrostatics
from fieldline_engine.em.field_solution import FieldSolution
from fieldline_engine.em.magnetostatics import solve_magnetostatics
from fieldline_engine.em.materials import (
    BodyMaterial,
    body_materials,
    coefficient,
    is_conducting,
    reciprocal,
)
from fieldline_engine.em.quasistatics import solve_quasistatics
from fieldline_engine.em.static_results import static_results
from fieldline_engine.mesh.curving import curve_mesh
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.protocol import SILENT, ProgressSpan


def element_order(config: dict[str, Any]) -> int:
    from fieldline_engine.errors import InvalidInput

    order = int(config.get("meshOrder", 1))
    if order not in (1, 2, 3):
        raise InvalidInput("Element order must be 1, 2 or 3.")
    return order


def solve_fields(
    mesh: ng.Mesh,
    materials: list[BodyMaterial],
    bnd: ResolvedBoundaries,
    order: int,
    frequency: float,
    options: SolverOptions,
    progress: ProgressSpan = SILENT,
    magnetic: bool = True,
    terminal_matrix: bool = True,
) -> FieldSolution:
    """Picks the regime from frequency and materials, solves it, and adds H where current flows.
    Takes a ready NGSolve mesh whose materials are body0, body1, … (validation tests pass curved
    netgen meshes here directly)."""
    potential_span = progress.sub(0.0, 0.7 if magnetic else 1.0)
    if frequency > 0:
        sol = solve_quasistatics(
            mesh, materials, bnd, order, frequency, options, potential_span, terminal_matrix
        )
    elif any(is_conducting(m) for m in materials):
        sol = solve_steady_conduction(mesh, materials, bnd, order, options, potential_span, terminal_matrix)
    else:
        sol = solve_electrostatics(mesh, materials, bnd, order, options, potential_span, terminal_matrix)
    if magnetic and sol.current_density is not None:
        nu = coefficient(mesh, reciprocal([m.permeability for m in materials]))
        mag = solve_magnetostatics(
            mesh, sol.current_density, nu, order, options, sol.complex_valued, progress.sub(0.7, 1.0)
        )
        sol.h_field = mag.h_field
        sol.quantities["magnetic_energy_J"] = mag.energy
        sol.reports.append(("magnetic field (HCurl)", mag.report))
        sol.magnetic_ndof = mag.ndof
    return sol


def solve_em_static(model: TetModel, config: dict[str, Any]) -> Solution:
    frequency = float(config.get("frequency", 0.0))
    bnd = resolve_boundaries(model, config)
    protocol.progress(6, "Building mesh")
    mesh = build_ngsolve_mesh(model, bnd.face_labels)
    order = element_order(config)
    curving = curve_mesh(mesh, model, config, order)
    materials = body_materials(model, config)
    sol = solve_fields(
        mesh,
        materials,
        bnd,
        order,
        frequency,
        SolverOptions.from_config(config),
        ProgressSpan(10, 80),
    )
    protocol.progress(82, "Sampling fields")
    solution = static_results(model, mesh, sol, config, order, curving)
    if adaptive_requested(config):
        solution.error_estimate = static_estimate(model, mesh, sol, materials, order)
    return solution
