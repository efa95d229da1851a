"""Prestress: the geometric stiffness K_σ of an initial stress σ₀, K_σ(u, v) = ∫ Σ σ₀_ij ∂_i u_k ∂_j v_k,
which joins K in the modes of a loaded part (Elasticity.prestress): tension stiffens (frequencies rise),
compression softens (they fall; at the buckling load the lowest reaches 0).

σ₀ is a `stress` field at the vertices (Voigt xx yy zz xy yz xz, as the structural family writes it): the
static step of the same job or another job's results (fieldsFrom), interpolated piecewise-linearly.
"""

import ngsolve as ng
import numpy as np

from fieldline_engine.core.elasticity.operator import Elasticity
from fieldline_engine.core.given_fields import vertex_cf


def prestress_cf(mesh: ng.Mesh, voigt: np.ndarray) -> ng.CoefficientFunction:
    s = vertex_cf(mesh, np.asarray(voigt, dtype=np.float64).reshape(-1, 6))
    xx, yy, zz, xy, yz, xz = (s[k] for k in range(6))
    return ng.CF((xx, xy, xz, xy, yy, yz, xz, yz, zz), dims=(3, 3))


def geometric_energies(elasticity: Elasticity, vectors: np.ndarray) -> np.ndarray:
    """φᵀ K_σ φ for each column of `vectors` (VectorH1 layout): how much of each mode's ω² the prestress
    gives (mass-normalised modes: ω² = φᵀKφ + φᵀK_σφ, so ω² − φᵀK_σφ is the unstressed Rayleigh quotient)."""
    if elasticity.prestress is None:
        return np.zeros(vectors.shape[1])
    gf = ng.GridFunction(elasticity.fes)
    out = []
    for k in range(vectors.shape[1]):
        gf.vec.FV().NumPy()[:] = vectors[:, k]
        integrand = ng.InnerProduct(ng.Grad(gf) * elasticity.prestress, ng.Grad(gf))
        out.append(float(ng.Integrate(integrand, elasticity.mesh, order=2 * elasticity.order)))
    return np.asarray(out)
