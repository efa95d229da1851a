"""Electro-quasi-statics for frequency > 0 driven by voltages: ∇·((σ + jωε)∇φ) = 0.

Phasors use the engineering convention e^{+jωt}; dielectric loss enters as ε(1 − j tanδ). The
complex potential gives E = −∇φ, the conduction current σE and the total (conduction +
displacement) current (σ + jωε)E, whose flux out of each terminal is the terminal current
(residual-based). Impedance faces tie their face group to ground through the lumped complex Z.

Derived: terminal current phasors, the two-terminal impedance Z = ΔV/I with its admittance split into
G + jωC, the admittance matrix for two or more terminals, time-averaged stored electric energy
¼∫ε′|E|² and dissipated power ½∫(σ + ωε′tanδ)|E|².

The quasi-static model neglects induction and wave effects; a warning is logged when the model is
larger than a tenth of the shortest wavelength in it.
"""

import math
from typing import Any

import ngsolve as ng

from fieldline_engine import protocol
from fieldline_engine.core.h1_scalar import PotentialSolver, SolverOptions
from fieldline_engine.em.boundary_conditions import ResolvedBoundaries
from fieldline_engine.em.conduction import impedance_admittances
from fieldline_engine.em.constants import C0, EPS0, MU0
from fieldline_engine.em.field_solution import (
    FieldSolution,
    fixed_vertices,
    matrix_entry,
    matrix_groups,
    phasor,
    require_grounding,
    two_terminal_voltages,
)
from fieldline_engine.em.materials import BodyMaterial, admittivity, coefficient
from fieldline_engine.limits import parallel
from fieldline_engine.mesh.ngsolve_mesh import bounding_box_diagonal
from fieldline_engine.protocol import SILENT


def solve_quasistatics(
    mesh: ng.Mesh,
    materials: list[BodyMaterial],
    bnd: ResolvedBoundaries,
    order: int,
    frequency: float,
    options: SolverOptions,
    progress: Any = None,
    terminal_matrix: bool = True,
) -> FieldSolution:
    progress = progress or SILENT
    require_grounding(bnd, "quasi-static", robin=bool(bnd.impedance))
    omega = 2.0 * math.pi * frequency
    notes = _validity_notes(mesh, materials, frequency)
    kappa = coefficient(mesh, admittivity(materials, omega))
    solver = PotentialSolver(
        mesh,
        kappa,
        bnd,
        order,
        options,
        complex_valued=True,
        robin=impedance_admittances(mesh, bnd, dc=False),
        fixed_vertices=fixed_vertices(bnd),
        progress=progress,
        what="quasi-static",
    )
    phi = solver.solve()
    e_field = -ng.grad(phi)
    total_current = kappa * e_field
    eps_real = coefficient(mesh, [m.permittivity for m in materials])
    loss = coefficient(
        mesh,
        [
            tuple(s + omega * e * m.loss_tangent for s, e in zip(m.conductivity, m.permittivity, strict=True))
            for m in materials
        ],
    )

    def average(coef: ng.CoefficientFunction) -> float:  # ∫ Re(E*·coef·E) for a real coefficient tensor
        integrand = ng.InnerProduct(coef * e_field.real, e_field.real) + ng.InnerProduct(
            coef * e_field.imag, e_field.imag
        )
        with parallel(mesh.ne):
            return float(ng.Integrate(integrand, mesh))

    energy = 0.25 * average(eps_real)
    power = 0.5 * average(loss)
    currents = solver.terminal_fluxes(phi)
    quantities: dict[str, Any] = {
        "terminal_currents_A": {g.name: phasor(currents[g.label]) for g in bnd.dirichlet},
        "stored_energy_J": energy,
        "dissipated_power_W": power,
    }
    two = two_terminal_voltages(bnd)
    if two and not solver.has_sources and not bnd.impedance:
        high = [g.label for g in bnd.dirichlet if g.voltage == two[1]]
        current = sum(currents[label] for label in high)
        if current != 0:
            admittance = current / (two[1] - two[0])
            quantities["impedance_ohm"] = phasor(1.0 / admittance)
            quantities["conductance_S"] = float(admittance.real)
            quantities["capacitance_F"] = float(admittance.imag / omega)
    groups = matrix_groups(bnd) if terminal_matrix else []
    if groups:
        matrix = solver.terminal_matrix([g.label for g in groups])
        quantities["admittance_matrix_S"] = matrix_entry([g.name for g in groups], matrix, True)
    return FieldSolution(
        regime="quasi-statics",
        potential=phi,
        e_field=e_field,
        current_density=total_current,
        complex_valued=True,
        frequency=frequency,
        quantities=quantities,
        ndof=solver.ndof,
        non_zeros=solver.non_zeros,
        reports=[("potential", solver.solver.report)],
        notes=notes,
    )


def _validity_notes(mesh: ng.Mesh, materials: list[BodyMaterial], frequency: float) -> list[str]:
    refractive = max(math.sqrt(max(m.permittivity) / EPS0 * max(m.permeability) / MU0) for m in materials)
    wavelength = C0 / (frequency * refractive)
    size = bounding_box_diagonal(mesh)
    if size > 0.1 * wavelength:
        note = (
            f"The model ({size:.3g} m across) is larger than a tenth of the wavelength ({wavelength:.3g} m) "
            "at this frequency: the quasi-static result neglects wave effects; use the full-wave mode."
        )
        protocol.log(note, level="warning")
        return [note]
    return []
