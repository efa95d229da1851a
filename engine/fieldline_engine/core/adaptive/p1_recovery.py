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
    origin = x[tets[:, 0]]
    e1, e2, e3 = (x[tets[:, j]] - origin for j in (1, 2, 3))
    rises = values[tets[:, 1:]] - values[tets[:, :1]]  # u_j − u_0, j = 1..3
    # eⱼ · ∇u = rⱼ: ∇u = (r₁ e₂×e₃ + r₂ e₃×e₁ + r₃ e₁×e₂) / det, det = e₁ · e₂×e₃ (Cramer)
    c23, c31, c12 = _cross(e2, e3), _cross(e3, e1), _cross(e1, e2)
    det = np.einsum("tk,tk->t", e1, c23)
    gradient = (rises[:, :1] * c23 + rises[:, 1:2] * c31 + rises[:, 2:] * c12) / det[:, None]
    volume = np.abs(det) / 6.0
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


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise a × b (np.cross's axis handling costs more than the product on a few hundred rows)."""
    return np.stack(
        [
            a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1],
            a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2],
            a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0],
        ],
        axis=1,
    )
