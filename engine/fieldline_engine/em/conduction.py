"""Steady (DC) conduction ∇·(σ∇φ) = 0 in the conducting bodies, then electrostatics in the rest.

At DC no current enters an insulator, so the conductors are solved first on their own (natural
boundary condition J·n = 0 on insulated faces); their potential then is the boundary value for the
electrostatic solve in the insulating bodies. A conducting body that no terminal reaches carries no
current: it is a floating equipotential, modelled in the electrostatic step by a permittivity 10⁶
times the largest one (equipotential to about 1e-6 relative, zero net charge).

Derived: terminal currents (residual of the σ system), dissipated power ∫σ|E|², the two-terminal
resistance ΔV²/P, the conductance matrix for two or more terminals on conductors, and the stored
electric energy in the insulators. Impedance faces are a lumped resistance Re(Z) to ground at DC.
"""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core import bits
from fieldline_engine.core.h1_scalar import PotentialSolver, SolverOptions
from fieldline_engine.em.boundary_conditions import ResolvedBoundaries
from fieldline_engine.em.field_solution import (
    FieldSolution,
    fixed_vertices,
    matrix_entry,
    matrix_groups,
    region_regex,
    require_grounding,
    two_terminal_voltages,
)
from fieldline_engine.em.materials import BodyMaterial, coefficient, is_conducting
from fieldline_engine.errors import InvalidInput
from fieldline_engine.limits import parallel
from fieldline_engine.mesh.ngsolve_mesh import boundary_region
from fieldline_engine.protocol import SILENT

FLOATING_CONDUCTOR_PERMITTIVITY_FACTOR = 1e6


def driven_conductors(
    mesh: ng.Mesh, materials: list[BodyMaterial], bnd: ResolvedBoundaries, fixed: dict[int, float]
) -> tuple[list[int], list[int]]:
    """Conducting bodies split into those a terminal (or touching conductor) reaches and floating ones."""
    conducting = [i for i, m in enumerate(materials) if is_conducting(m)]
    probe = ng.H1(mesh, order=1)  # vertex DOFs are enough to see which bodies touch what
    masks = {b: bits.mask(probe.GetDofs(mesh.Materials(f"body{b}"))) for b in conducting}
    anchored = np.zeros(probe.ndof, dtype=bool)
    for g in bnd.dirichlet:
        anchored |= bits.mask(probe.GetDofs(mesh.Boundaries(g.label)))
    for label, _z in bnd.impedance:
        anchored |= bits.mask(probe.GetDofs(mesh.Boundaries(label)))
    anchored[list(fixed)] = True
    parent = {b: b for b in conducting}

    def root(b: int) -> int:
        while parent[b] != b:
            b = parent[b]
        return b

    for i, a in enumerate(conducting):
        for b in conducting[i + 1 :]:
            if np.any(masks[a] & masks[b]):
                parent[root(a)] = root(b)
    driven_roots = {root(b) for b in conducting if np.any(masks[b] & anchored)}
    driven = [b for b in conducting if root(b) in driven_roots]
    return driven, [b for b in conducting if b not in driven]


def impedance_admittances(mesh: ng.Mesh, bnd: ResolvedBoundaries, dc: bool) -> list[tuple[str, Any]]:
    """A face group tied to ground through a lumped Z, spread over its area: y = 1/(Z·area) per m²."""
    out = []
    for label, z in bnd.impedance:
        zz = complex(z.real, 0.0) if dc else z
        if zz == 0 or (dc and zz.real <= 0):
            raise InvalidInput(
                "An impedance condition needs a non-zero impedance (a positive resistance at frequency 0)."
            )
        area = ng.Integrate(ng.CF(1.0), mesh, ng.BND, definedon=mesh.Boundaries(label))
        y = 1.0 / (zz * area)
        out.append((label, y.real if dc else y))
    return out


def solve_steady_conduction(
    mesh: ng.Mesh,
    materials: list[BodyMaterial],
    bnd: ResolvedBoundaries,
    order: int,
    options: SolverOptions,
    progress: Any = None,
    terminal_matrix: bool = True,
) -> FieldSolution:
    progress = progress or SILENT
    require_grounding(bnd, "conduction", robin=bool(bnd.impedance))
    fixed = fixed_vertices(bnd)
    driven, floating = driven_conductors(mesh, materials, bnd, fixed)
    if not driven:
        raise InvalidInput(
            "No terminal touches a conducting body: put a Dirichlet condition on a conductor's faces, "
            "or set the conductivity to 0 for an electrostatic analysis."
        )
    insulating = [i for i in range(len(materials)) if i not in driven]
    sigma_values = [m.conductivity if i in driven else (0.0, 0.0, 0.0) for i, m in enumerate(materials)]
    sigma = coefficient(mesh, sigma_values)

    step = progress.sub(0.0, 0.55 if insulating else 1.0)
    conduction = PotentialSolver(
        mesh,
        sigma,
        bnd,
        order,
        options,
        robin=impedance_admittances(mesh, bnd, dc=True),
        definedon=region_regex(driven),
        fixed_vertices=_vertices_in(mesh, fixed, driven),
        progress=step,
        what="conduction",
    )
    phi_c = conduction.solve(label="Solving conduction")
    reports = [("conduction", conduction.solver.report)]
    phi, energy = phi_c, 0.0
    if insulating:
        big = FLOATING_CONDUCTOR_PERMITTIVITY_FACTOR * max(max(m.permittivity) for m in materials)
        eps_values = [(big,) * 3 if i in floating else m.permittivity for i, m in enumerate(materials)]
        eps = coefficient(mesh, eps_values)
        driven_set = set(driven)
        interface = boundary_region(
            mesh, lambda a, b: (a in driven_set) != (b in driven_set) and a is not None and b is not None
        )
        electro = PotentialSolver(
            mesh,
            eps,
            bnd,
            order,
            options,
            definedon=region_regex(insulating),
            interface=interface,
            interface_values=phi_c,
            fixed_vertices=_vertices_in(mesh, fixed, insulating),
            progress=progress.sub(0.55, 1.0),
            what="electrostatic (insulators)",
        )
        phi_i = electro.solve(label="Solving electrostatics in the insulators")
        reports.append(("electrostatics in insulators", electro.solver.report))
        real_eps = coefficient(
            mesh, [m.permittivity if i not in floating else (0.0,) * 3 for i, m in enumerate(materials)]
        )
        with parallel(mesh.ne):
            energy = 0.5 * float(
                ng.Integrate(
                    ng.InnerProduct(real_eps * ng.grad(phi_i), ng.grad(phi_i)),
                    mesh,
                    definedon=mesh.Materials(region_regex(insulating)),
                )
            )
        phi = _joined(mesh, order, {**dict.fromkeys(driven, phi_c), **dict.fromkeys(insulating, phi_i)})

    e_field = -ng.grad(phi)
    current = sigma * e_field
    with parallel(mesh.ne):
        power = float(ng.Integrate(ng.InnerProduct(current, e_field), mesh))
    currents = conduction.terminal_fluxes(phi_c)
    on_conductor = {
        g.label for g in bnd.dirichlet if abs(currents[g.label]) > 0 or _touches(conduction, g.label)
    }
    quantities: dict[str, Any] = {
        "terminal_currents_A": {
            g.name: currents[g.label].real for g in bnd.dirichlet if g.label in on_conductor
        },
        "dissipated_power_W": power,
    }
    if insulating:
        # the electric energy is computed in the insulators only; without any, a "0 J" would read as
        # a result (the conductors' own ½∫εE² is not what a DC user asks for)
        quantities["stored_energy_J"] = energy
    two = two_terminal_voltages(bnd)
    if two and not conduction.has_sources and not bnd.impedance and power > 0:
        quantities["resistance_ohm"] = (two[1] - two[0]) ** 2 / power
    groups = matrix_groups(bnd, on_conductor) if terminal_matrix else []
    if groups:
        matrix = conduction.terminal_matrix([g.label for g in groups]).real
        quantities["conductance_matrix_S"] = matrix_entry([g.name for g in groups], matrix, False)
    if floating:
        quantities["floating_conductors"] = floating
    return FieldSolution(
        regime="steady conduction",
        potential=phi,
        e_field=e_field,
        current_density=current,
        complex_valued=False,
        frequency=0.0,
        quantities=quantities,
        ndof=conduction.ndof,
        non_zeros=conduction.non_zeros,
        reports=reports,
    )


def _touches(solver: PotentialSolver, label: str) -> bool:
    """Whether a Dirichlet group has DOFs in the conduction space (it lies on a driven conductor)."""
    dofs = solver.group_dofs(label)
    free_or_fixed = bits.mask(solver.fes.GetDofs(solver.mesh.Materials(".*")))
    return bool(dofs.size and np.any(free_or_fixed[dofs]))


def _vertices_in(mesh: ng.Mesh, fixed: dict[int, float], bodies: list[int]) -> dict[int, float]:
    probe = ng.H1(mesh, order=1, definedon=region_regex(bodies))
    inside = bits.mask(probe.GetDofs(mesh.Materials(region_regex(bodies))))
    return {v: volts for v, volts in fixed.items() if inside[v]}


def _joined(mesh: ng.Mesh, order: int, parts: dict[int, ng.GridFunction]) -> ng.GridFunction:
    """One continuous potential on the whole mesh from per-body solutions that agree on interfaces."""
    full = ng.GridFunction(ng.H1(mesh, order=order))
    full.Set(mesh.MaterialCF({f"body{i}": gf for i, gf in parts.items()}, default=0))
    return full
