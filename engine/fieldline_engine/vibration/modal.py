"""Natural frequencies and mode shapes: K φ = ω² M φ with the consistent mass, by shift-and-invert Lanczos
(ARPACK through SciPy) on the free DOFs.

The shift is below the wanted modes: slightly negative for the lowest modes, so K − σM is positive definite
and factors by sparse Cholesky (NGSolve's, on the assembled matrices) even for a free–free model whose K is
singular; (2π f_min)² when a lowest frequency of interest is given (then an LU factor). A free–free model's rigid-body modes (≈ 0 Hz, as
many as the supports leave free motions) are found too, labelled, and not counted in the requested number.
Modes are mass-normalised (φᵀMφ = 1); participation factors Γ = φᵀM r and effective masses Γ² use the rigid
translations r in x, y, z.
"""

import math
import time
from dataclasses import dataclass

import ngsolve as ng
import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import ArpackNoConvergence, LinearOperator, eigsh

from fieldline_engine.core.materials import MaterialTable
from fieldline_engine.errors import EngineError, InvalidInput
from fieldline_engine.limits import parallel
from fieldline_engine.protocol import SILENT, ProgressSpan
from fieldline_engine.structural.elasticity import Elasticity
from fieldline_engine.structural.setup import StructuralSetup
from fieldline_engine.structural.static import component_dirichlet

MAX_MODES = 50
MAX_DOFS = 1_500_000


@dataclass
class ModalResult:
    elasticity: Elasticity
    eigenvalues: np.ndarray  # ω² (rad²/s²), ascending
    vectors: np.ndarray  # (ndof, k) mass-normalised, zero on constrained DOFs
    rigid: int  # how many of the first modes are rigid-body motions
    residuals: np.ndarray  # ‖Kφ − ω²Mφ‖ / ‖Kφ‖ per mode
    participation: np.ndarray  # (k, 3) Γ = φᵀ M r_d
    total_mass: np.ndarray  # (3,) r_dᵀ M r_d (kg)
    non_zeros: int
    iterations: int
    seconds: float
    K: sp.csr_matrix
    M: sp.csr_matrix
    free: np.ndarray

    @property
    def frequencies(self) -> np.ndarray:
        return np.sqrt(np.maximum(self.eigenvalues, 0.0)) / (2 * math.pi)

    @property
    def effective_mass(self) -> np.ndarray:
        return self.participation**2


def _scipy(mat: ng.BaseMatrix, n: int) -> sp.csr_matrix:
    rows, cols, vals = mat.COO()
    out = sp.csr_matrix((np.asarray(vals), (np.asarray(rows), np.asarray(cols))), shape=(n, n))
    out.sum_duplicates()
    return out


def translations(fes: ng.FESpace) -> np.ndarray:
    """(ndof, 3): the rigid translations as DOF vectors (1 on a component's vertex DOFs: the hierarchical
    basis represents a constant by its vertex values)."""
    nv = fes.mesh.nv
    block = fes.ndof // 3
    r = np.zeros((fes.ndof, 3))
    for k in range(3):
        r[k * block : k * block + nv, k] = 1.0
    return r


def solve_modes(
    mesh: ng.Mesh,
    setup: StructuralSetup,
    materials: MaterialTable,
    order: int,
    count: int,
    rigid: int,
    min_frequency: float | None,
    progress: ProgressSpan = SILENT,
) -> ModalResult:
    if not 1 <= count <= MAX_MODES:
        raise InvalidInput(f"modalNumModes must be between 1 and {MAX_MODES}.")
    if any(v not in (None, 0.0) for s in setup.supports for v in s.values):
        raise InvalidInput(
            "A modal analysis vibrates about the unloaded state: displacement conditions must be 0 (or null), "
            "not a prescribed motion."
        )
    started = time.perf_counter()
    elasticity = Elasticity(mesh, materials, order, component_dirichlet(setup))
    fes = elasticity.fes
    if fes.ndof > MAX_DOFS:
        raise EngineError("too_large", f"The eigenproblem has {fes.ndof} unknowns (limit {MAX_DOFS}).")
    progress(0.05, f"Assembling stiffness and mass ({fes.ndof} DOFs)")
    a, m = elasticity.stiffness(), elasticity.mass()
    with parallel(fes.ndof):
        a.Assemble()
        m.Assemble()
    free = np.nonzero(np.array(fes.FreeDofs(), dtype=bool))[0]
    K_full, M_full = _scipy(a.mat, fes.ndof), _scipy(m.mat, fes.ndof)
    K = K_full[free][:, free].tocsc()
    M = M_full[free][:, free].tocsc()
    wanted = count + (0 if min_frequency else rigid)
    wanted = min(wanted, len(free) - 2)
    diag = K.diagonal() / np.maximum(M.diagonal(), 1e-300)
    sigma = (2 * math.pi * min_frequency) ** 2 if min_frequency else -1e-9 * float(np.mean(diag))
    progress(0.2, "Factorizing the shifted system")
    op = _shift_invert(a.mat, m.mat, fes, free, K, M, sigma)
    progress(0.4, f"Lanczos: {wanted} modes")
    iterations = [0]

    def counted(x):
        iterations[0] += 1
        return op(x)

    inverse = LinearOperator(K.shape, matvec=counted, dtype=np.float64)
    try:
        values, vectors = eigsh(K, k=wanted, M=M, sigma=sigma, which="LM", OPinv=inverse, tol=1e-10)
    except ArpackNoConvergence as exc:
        values, vectors = exc.eigenvalues, exc.eigenvectors
        if len(values) == 0:
            raise EngineError("eigen_no_convergence", "The eigen solve found no converged mode.") from exc
        found = ", ".join(f"{math.sqrt(max(v, 0)) / (2 * math.pi):.4g} Hz" for v in np.sort(values))
        raise EngineError(
            "eigen_no_convergence",
            f"The eigen solve converged for {len(values)} of {wanted} modes only ({found}). Ask for fewer modes "
            "or set a lowest frequency near the wanted ones.",
        ) from exc
    order_idx = np.argsort(values)
    values, vectors = values[order_idx], vectors[:, order_idx]
    # Mass-normalise: φᵀMφ = 1.
    vectors = vectors / np.sqrt(np.einsum("ij,ij->j", vectors, M @ vectors))
    # Relative to the largest eigenvalue found, so rigid modes (λ ≈ 0) are judged on the same scale.
    scale = max(float(np.max(np.abs(values))), 1e-300)
    residuals = np.linalg.norm(K @ vectors - (M @ vectors) * values, axis=0) / (
        np.linalg.norm(M @ vectors, axis=0) * scale
    )
    full = np.zeros((fes.ndof, len(values)))
    full[free] = vectors
    r = translations(fes)
    Mr = M_full @ r
    participation = full.T @ Mr  # φᵀ M r (φ mass-normalised)
    total_mass = np.einsum("ij,ij->j", r, Mr)
    return ModalResult(
        elasticity=elasticity,
        eigenvalues=values,
        vectors=full,
        rigid=0 if min_frequency else min(rigid, len(values)),
        residuals=residuals,
        participation=participation,
        total_mass=total_mass,
        non_zeros=int(a.mat.nze),
        iterations=iterations[0],
        seconds=time.perf_counter() - started,
        K=K_full,
        M=M_full,
        free=free,
    )


def _shift_invert(
    k_mat: ng.BaseMatrix,
    m_mat: ng.BaseMatrix,
    fes: ng.FESpace,
    free: np.ndarray,
    K: sp.csc_matrix,
    M: sp.csc_matrix,
    sigma: float,
):
    """x ↦ (K − σM)⁻¹ x on the free DOFs: NGSolve's sparse Cholesky of the assembled K − σM when the shift is
    below every eigenvalue (5× less CPU than CHOLMOD's simplicial factor through cholespy, measured on a 43k-DOF
    cantilever at order 2), else SciPy's LU."""
    if sigma < 0 and k_mat.nze == m_mat.nze:  # one fes, one sparsity pattern
        shifted = k_mat.CreateMatrix()
        shifted.AsVector().data = k_mat.AsVector() - sigma * m_mat.AsVector()
        with parallel(fes.ndof):
            inverse = shifted.Inverse(fes.FreeDofs(), inverse="sparsecholesky")
        rhs, out = shifted.CreateColVector(), shifted.CreateColVector()
        rhs[:] = 0.0
        rhs_np, out_np = rhs.FV().NumPy(), out.FV().NumPy()

        def solve(x):
            rhs_np[free] = x
            with parallel(fes.ndof):
                out.data = inverse * rhs
            return out_np[free].copy()

        return solve
    from scipy.sparse.linalg import splu

    lu = splu((K - sigma * M).tocsc())
    return lu.solve
