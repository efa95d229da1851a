"""Electrostatics ∇·(ε∇φ) = 0 with H1 elements of order 1–3.

Dirichlet groups fix potentials, Neumann faces carry a normal flux D·n, the reference node grounds a
floating problem. Terminal charges come from the residual of the full (unconstrained) matrix, which is
more accurate than integrating D·n over the terminal.
"""

from dataclasses import dataclass
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine import protocol
from fieldline_engine.errors import InvalidInput
from fieldline_engine.physics.boundary_conditions import ResolvedBoundaries
from fieldline_engine.physics.linear_solve import SolveReport, solve_spd


@dataclass
class ElectrostaticSolution:
    potential: ng.GridFunction
    fes: ng.H1
    stiffness: ng.BilinearForm
    report: SolveReport
    energy: float
    charges: dict[str, float]


def solve_electrostatics(
    mesh: ng.Mesh,
    permittivity: ng.CoefficientFunction,
    bnd: ResolvedBoundaries,
    order: int,
    tolerance: float,
    max_iterations: int,
) -> ElectrostaticSolution:
    if not bnd.dirichlet and not bnd.dirichlet_vertices and bnd.reference_vertex is None:
        raise InvalidInput(
            "The electrostatic problem is floating: add a Dirichlet condition (a fixed voltage on some faces or "
            "nodes) or set a reference node."
        )
    dirichlet_regex = "|".join(g.label for g in bnd.dirichlet)
    fes = ng.H1(mesh, order=order, dirichlet=dirichlet_regex) if dirichlet_regex else ng.H1(mesh, order=order)
    u, v = fes.TnT()
    protocol.progress(20, "Assembling")
    a = ng.BilinearForm(fes, symmetric=True)
    a += ng.InnerProduct(permittivity * ng.grad(u), ng.grad(v)) * ng.dx
    f = ng.LinearForm(fes)
    for label, flux in bnd.neumann:
        if flux != 0.0:
            f += flux * v * ng.ds(label)
    large = fes.ndof > 250_000
    pre = ng.Preconditioner(a, "bddc") if large else None
    with ng.TaskManager():
        a.Assemble()
        f.Assemble()

    phi = ng.GridFunction(fes)
    for g in bnd.dirichlet:
        phi.Set(g.voltage, definedon=mesh.Boundaries(g.label))
    freedofs = ng.BitArray(fes.FreeDofs())
    # H1 numbers vertex DOFs first, so vertex i is DOF i; fix lone nodes and the reference node there.
    fixed_vertices = dict(bnd.dirichlet_vertices)
    if bnd.reference_vertex is not None and not bnd.dirichlet and not bnd.dirichlet_vertices:
        fixed_vertices[bnd.reference_vertex] = 0.0
    for vertex, volts in fixed_vertices.items():
        phi.vec[vertex] = volts
        freedofs.Clear(vertex)

    protocol.progress(45, "Solving")
    rhs = f.vec.CreateVector()
    rhs.data = f.vec - a.mat * phi.vec
    with ng.TaskManager():
        report = solve_spd(a, rhs, phi, freedofs, tolerance, max_iterations, pre)

    protocol.progress(70, "Computing derived quantities")
    energy = 0.5 * float(ng.Integrate(ng.InnerProduct(permittivity * ng.grad(phi), ng.grad(phi)), mesh))
    residual = phi.vec.CreateVector()
    residual.data = a.mat * phi.vec - f.vec
    r = residual.FV().NumPy()
    charges: dict[str, float] = {}
    for g in bnd.dirichlet:
        dofs = _boundary_dofs(fes, mesh, g.label)
        charges[g.name] = float(np.sum(r[dofs]))
    return ElectrostaticSolution(phi, fes, a, report, energy, charges)


def _boundary_dofs(fes: ng.FESpace, mesh: ng.Mesh, label: str) -> np.ndarray:
    mask = fes.GetDofs(mesh.Boundaries(label))
    return np.nonzero(np.array(mask, dtype=bool))[0]


def derived_quantities(sol: ElectrostaticSolution, bnd: ResolvedBoundaries) -> dict[str, Any]:
    """Energy, terminal charges and, for two distinct terminal voltages, the capacitance C = 2W/ΔV²."""
    out: dict[str, Any] = {"stored_energy_J": sol.energy, "terminal_charges_C": sol.charges}
    volts = sorted({g.voltage for g in bnd.dirichlet})
    if len(volts) == 2 and volts[1] != volts[0]:
        out["capacitance_F"] = 2.0 * sol.energy / (volts[1] - volts[0]) ** 2
    return out
