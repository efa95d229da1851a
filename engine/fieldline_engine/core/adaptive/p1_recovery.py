"""Zienkiewicz–Zhu recovery of a first-order potential's gradient in closed form, for straight tetrahedra.

The gradient of a P1 potential is constant on each tetrahedron. NGSolve's `Set` into first-order H1 (what
`recovery_indicators` does) gives each vertex the plain mean of its tetrahedra's gradients; the difference
from the element's gradient is then linear on the element, and ∫ w |d|² over a tetrahedron of volume V with
vertex values d_i is w V/20 (Σ|d_i|² + |Σ d_i|²) exactly. The same indicators to rounding (checked against
the NGSolve path, tests/adaptive/test_p1_recovery.py), without building a space, projecting and integrating
twice: most of an estimate's cost on the small meshes of an adaptive run's first passes.
"""

import ngsolve as ng
import numpy as np

from fieldline_engine.mesh.tet_model import TetModel


def applies(mesh: ng.Mesh, potential: object, order: int, complex_valued: bool, nv: int) -> bool:
    """The closed form holds: order 1, real, straight elements (no curving, no deformation), and the
    potential a first-order H1 function whose DOF i is vertex i (build_ngsolve_mesh keeps vertex order)."""
    if order != 1 or complex_valued or not isinstance(potential, ng.GridFunction):
        return False
    space = potential.space
    return (
        type(space) is ng.H1
        and space.globalorder == 1
        and not space.is_complex
        and space.ndof == nv
        and mesh.GetCurveOrder() <= 1
        and mesh.deformation is None
    )


def p1_recovery_indicators(
    model: TetModel, values: np.ndarray, weight: np.ndarray
) -> tuple[np.ndarray, float]:
    """η_T² per model tetrahedron of the recovered gradient of the P1 function with vertex `values`,
    weighted by `weight` (one number per tetrahedron), and Σ w ∫|∇u|² — as recovery_indicators returns."""
    x, tets = model.vertices, model.tetrahedra
    edges = x[tets[:, 1:]] - x[tets[:, :1]]  # (nt, 3, 3): rows are the edges from vertex 0
    rises = values[tets[:, 1:]] - values[tets[:, :1]]  # u_j − u_0, j = 1..3
    gradient = np.linalg.solve(edges, rises[:, :, None])[:, :, 0]  # edges · ∇u = rises
    volume = np.abs(np.linalg.det(edges)) / 6.0
    count = np.bincount(tets.ravel(), minlength=model.nv).astype(np.float64)
    recovered = np.empty((model.nv, 3))
    for c in range(3):
        recovered[:, c] = np.bincount(tets.ravel(), np.repeat(gradient[:, c], 4), minlength=model.nv)
    recovered /= np.maximum(count, 1.0)[:, None]
    d = recovered[tets] - gradient[:, None, :]  # (nt, 4, 3)
    total = d.sum(axis=1)
    eta2 = weight * volume / 20.0 * (np.einsum("tik,tik->t", d, d) + np.einsum("tk,tk->t", total, total))
    norm2 = float(np.sum(weight * volume * np.einsum("tk,tk->t", gradient, gradient)))
    return np.maximum(eta2, 0.0), norm2
