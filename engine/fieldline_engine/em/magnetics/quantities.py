"""What designers read off a magnetostatic solution: flux linkages, the inductance matrix, forces, torques.

- Flux linkage of coil k: Ψ_k = ∫ A·N_k s_k dV with s_k the coil's divergence-free turn density (J per
  ampere-turn); gauge-free because s_k is orthogonal to gradients.
- Inductance matrix: one solve per coil with 1 A in it on the system's tangent (the linear system itself
  for linear materials; about the solution for iron on a curve: the incremental inductance),
  L_ij = ∫ δA_j · N_i s_i dV. For linear models without magnets it is checked against the energy:
  ½ IᵀLI = W.
- Force and torque on a body (virtual work with Maxwell's stress tensor T = H⊗B − ½(H·B)I): g = 1 on the
  body's vertices and 0 elsewhere, F = −∫ T∇g dV over the layer of elements around the body,
  τ = −∫ (x − o) × (T∇g) dV about the axis through o; the surrounding layer should be air.
"""

from dataclasses import dataclass

import ngsolve as ng
import numpy as np

from fieldline_engine.em.magnetics.solver import MagnetostaticFields, exact_order, solve_tangent
from fieldline_engine.limits import parallel


@dataclass
class CoilDrive:
    name: str
    turns: float
    current: float
    body: int | None = None  # the winding's body: its turn density is 0 elsewhere, so integrals stay there


def _over_coil(mesh: ng.Mesh, coil: CoilDrive) -> ng.Region | None:
    """The coil's own body (a fifth of the toroid bench's tetrahedra), else the whole mesh."""
    return None if coil.body is None else mesh.Materials(f"body{coil.body}")


def _linkage(mesh: ng.Mesh, potential: ng.GridFunction, coil: CoilDrive, s: ng.CoefficientFunction) -> float:
    # A of order p times the lowest-order Raviart–Thomas density (degree 1)
    rule = exact_order(mesh, potential.space.globalorder + 1)
    return float(coil.turns * ng.Integrate(potential * s, mesh, order=rule, definedon=_over_coil(mesh, coil)))


def flux_linkages(fields: MagnetostaticFields, coils: list[CoilDrive]) -> list[float]:
    return [
        _linkage(fields.mesh, fields.potential, c, s) for c, s in zip(coils, fields.coil_sources, strict=True)
    ]


def inductance_matrix(
    fields: MagnetostaticFields,
    coils: list[CoilDrive],
    magnets: bool = False,
    linkages: list[float] | None = None,
) -> np.ndarray:
    """`linkages`: the solution's flux linkages (flux_linkages), which give the column of a coil whose 1 A
    response is the solution scaled (below) without integrating again: L_ij = Ψ_i / I_j."""
    fes, mesh = fields.space, fields.mesh
    # A linear model whose one source is coil k: its solution already is I_k times coil k's 1 A response, so
    # that solve is skipped (a single-coil job solves once instead of twice; with CG that is half its time).
    driven = [j for j, c in enumerate(coils) if c.turns * c.current != 0.0]
    scaled = driven[0] if len(driven) == 1 and not fields.nonlinear and not magnets else None
    # Iron on a curve: the tangent about the solution, which the last Newton step's factor preconditions.
    stale = fields.nonlinear
    if stale:
        with parallel(fes.ndof):
            fields.solver.a.AssembleLinearization(fields.potential.vec)
    v = fes.TestFunction()
    n = len(coils)
    matrix = np.zeros((n, n))
    responses = []
    for j, coil in enumerate(coils):
        if j == scaled:
            da = ng.GridFunction(fes)
            da.vec.data = (1.0 / coil.current) * fields.potential.vec
            responses.append(da)
            continue
        f = ng.LinearForm(coil.turns * fields.coil_sources[j] * v * ng.dx)
        with parallel(fes.ndof):
            f.Assemble()
        da = ng.GridFunction(fes)
        da.vec[:] = 0.0
        label = f"Inductance: 1 A in coil '{coil.name}'"
        if stale:
            stale = not solve_tangent(fields.solver, fes.FreeDofs(), f.vec, da, label, reuse=True)
        else:
            fields.solver.solve(f.vec, da, label)
        responses.append(da)
    for i, coil in enumerate(coils):
        for j in range(n):
            if j == scaled and linkages is not None:
                matrix[i, j] = linkages[i] / coils[j].current
            else:
                matrix[i, j] = _linkage(mesh, responses[j], coil, fields.coil_sources[i])
    return 0.5 * (matrix + matrix.T)


def energy_check(matrix: np.ndarray, coils: list[CoilDrive], energy: float) -> float | None:
    """|½IᵀLI − W| / W, when a current flows."""
    current = np.array([c.current for c in coils])
    if not np.any(current) or energy <= 0:
        return None
    return float(abs(0.5 * current @ matrix @ current - energy) / energy)


def _vertex_indicator(mesh: ng.Mesh, body: int) -> ng.GridFunction:
    h1 = ng.H1(mesh, order=1)
    g = ng.GridFunction(h1)
    values = np.zeros(h1.ndof)
    for el in mesh.Elements(ng.VOL):
        if el.mat == f"body{body}":
            for vert in el.vertices:
                values[vert.nr] = 1.0
    g.vec.FV().NumPy()[:] = values
    return g


def force_and_torque(
    fields: MagnetostaticFields, body: int, origin: np.ndarray, axis: np.ndarray | None
) -> tuple[list[float], float | None]:
    mesh = fields.mesh
    g = _vertex_indicator(mesh, body)
    grad_g = ng.grad(g)
    h, b = fields.h, fields.b
    traction = h * ng.InnerProduct(b, grad_g) - 0.5 * ng.InnerProduct(h, b) * grad_g  # T∇g
    outside = mesh.MaterialCF({f"body{body}": 0.0}, default=1.0)
    force = -np.array(ng.Integrate(outside * traction, mesh))
    torque = None
    if axis is not None:
        arm = ng.CF((ng.x - origin[0], ng.y - origin[1], ng.z - origin[2]))
        moment = -np.array(ng.Integrate(outside * ng.Cross(arm, traction), mesh))
        torque = float(moment @ (axis / np.linalg.norm(axis)))
    return [float(x) for x in force], torque
