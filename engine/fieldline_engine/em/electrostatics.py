"""Electrostatics ∇·(ε∇φ) = 0 with H1 elements of order 1–3.

Dirichlet groups fix potentials, Neumann faces carry a surface charge density (ε∂φ/∂n = flux), the
reference node grounds a floating problem. Derived: stored energy ½∫ε|E|², terminal charges from the
residual, the two-terminal capacitance 2W/ΔV² and, for two or more Dirichlet groups, the Maxwell
capacitance matrix (column j: group j at 1 V, every other group at 0 V; C_ij = charge on group i).
"""

from typing import Any

import ngsolve as ng

from fieldline_engine.core.h1_scalar import PotentialSolver, SolverOptions
from fieldline_engine.em.boundary_conditions import ResolvedBoundaries
from fieldline_engine.em.field_solution import (
    FieldSolution,
    fixed_vertices,
    matrix_entry,
    matrix_groups,
    require_grounding,
    two_terminal_voltages,
)
from fieldline_engine.em.materials import BodyMaterial, coefficient, isotropic_values
from fieldline_engine.errors import InvalidInput
from fieldline_engine.limits import parallel
from fieldline_engine.protocol import SILENT


def solve_electrostatics(
    mesh: ng.Mesh,
    materials: list[BodyMaterial],
    bnd: ResolvedBoundaries,
    order: int,
    options: SolverOptions,
    progress: Any = None,
    terminal_matrix: bool = True,
) -> FieldSolution:
    require_grounding(bnd, "electrostatic")
    if bnd.impedance:
        raise InvalidInput(
            "Impedance conditions need a current to flow: give the model a conductivity or a frequency above 0."
        )
    progress = progress or SILENT
    permittivity = [m.permittivity for m in materials]
    eps = coefficient(mesh, permittivity)
    solver = PotentialSolver(
        mesh,
        eps,
        bnd,
        order,
        options,
        fixed_vertices=fixed_vertices(bnd),
        progress=progress,
        what="electrostatic",
        kappa_by_body=isotropic_values(permittivity),
    )
    progress(0.5, "Solving")
    phi = solver.solve()
    e_field = -ng.grad(phi)
    with parallel(solver.ndof):
        energy = 0.5 * float(ng.Integrate(ng.InnerProduct(eps * e_field, e_field), mesh))
    charges = solver.terminal_fluxes(phi)
    quantities: dict[str, Any] = {
        "stored_energy_J": energy,
        "terminal_charges_C": {g.name: charges[g.label].real for g in bnd.dirichlet},
    }
    two = two_terminal_voltages(bnd)
    if two and not solver.has_sources:
        quantities["capacitance_F"] = 2.0 * energy / (two[1] - two[0]) ** 2
    groups = matrix_groups(bnd) if terminal_matrix else []
    if groups:
        progress(0.7, "Capacitance matrix")
        matrix = solver.terminal_matrix([g.label for g in groups]).real
        quantities["capacitance_matrix_F"] = matrix_entry([g.name for g in groups], matrix, False)
    return FieldSolution(
        regime="electrostatics",
        potential=phi,
        e_field=e_field,
        current_density=None,
        complex_valued=False,
        frequency=0.0,
        quantities=quantities,
        ndof=solver.ndof,
        non_zeros=solver.non_zeros,
        reports=[("potential", solver.solver.report)],
    )
