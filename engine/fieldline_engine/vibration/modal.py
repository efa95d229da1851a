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

from fieldline_engine.core import bits
from fieldline_engine.core.eigen.free_block import FreeBlock
from fieldline_engine.core.eigen.lobpcg import lobpcg
from fieldline_engine.core.elasticity.loads import component_dirichlet
from fieldline_engine.core.elasticity.operator import Elasticity
from fieldline_engine.core.elasticity.setup import ElasticSetup
from fieldline_engine.core.elasticity.vertex_coarse import GaussSeidelTwoLevel, vertex_dofs
from fieldline_engine.core.heap import reuse_freed_blocks
from fieldline_engine.core.materials import MaterialTable
from fieldline_engine.core.sparse import CsrArrays
from fieldline_engine.errors import EngineError, InvalidInput
from fieldline_engine.limits import address_space_limit_mb, parallel
from fieldline_engine.protocol import SILENT, ProgressSpan
from fieldline_engine.vibration import node_blocks

MAX_MODES = 50
MAX_DOFS = 1_500_000


# `linearSolver: auto` factors K − σM directly up to this size, when the factor fits the job's memory limit, and
# goes to LOBPCG with the two-level preconditioner above it (core/elasticity/vertex_coarse.py). The direct path is the faster
# one where it fits: on the bench cantilever (one thread) 4.9 vs 14.4 CPU s at 42 k DOFs, 35.8 vs ≈ 70 at 0.21 M;
# its factor grows faster than n^(4/3) (more than 10 GB at 1.05 M DOFs), LOBPCG's cost and memory linearly
# (bench/vibration/README.md). contracts/src/resources.ts mirrors this choice for the pre-run estimate.
DIRECT_MAX_DOFS = 400_000
# The direct path's peak memory for the routing test, the same model as the pre-run estimate's for a
# displacement (MEMORY_MODEL in contracts/src/resources.ts): 1 GB + 210 B · n^(4/3).
_DIRECT_BASE_BYTES = 1.0e9
_DIRECT_BYTES_PER_N43 = 210
LOBPCG_TOLERANCE = 1e-6
# ARPACK's convergence test on the Ritz values of (K − σM)⁻¹M, with 2k + 3 Lanczos vectors: the ten-mode
# cantilever converges in the first pass (24 solves, whatever the start vector) instead of restarting to 28
# solves at 1e-10 with SciPy's 2k + 1; the frequencies agree to 1e-10 (bench/vibration/README.md). CalculiX's
# *FREQUENCY default is 1e-2 with 5k vectors (≥ 50 solves for ten modes).
LANCZOS_TOLERANCE = 1e-6
LOBPCG_MAX_ITERATIONS = 400


@dataclass
class ModalResult:
    elasticity: Elasticity
    eigenvalues: np.ndarray  # ω² (rad²/s²), ascending
    vectors: np.ndarray  # (ndof, k) mass-normalised, zero on constrained DOFs
    rigid: int  # how many of the first modes are rigid-body motions
    residuals: np.ndarray  # ‖Kφ − ω²Mφ‖ / (‖Mφ‖ · max ω²) per mode
    participation: np.ndarray  # (k, 3) Γ = φᵀ M r_d
    total_mass: np.ndarray  # (3,) r_dᵀ M r_d (kg)
    non_zeros: int
    iterations: int
    seconds: float
    stiffness: ng.BaseMatrix  # assembled K + shift · M on every DOF (NGSolve's, no copy)
    mass: ng.BaseMatrix
    shift: float
    free: np.ndarray
    method: str
    info: dict
    blocked: bool = False  # stiffness and mass are the node-blocked matrices (vibration/node_blocks.py)

    @property
    def frequencies(self) -> np.ndarray:
        return np.sqrt(np.maximum(self.eigenvalues, 0.0)) / (2 * math.pi)

    @property
    def effective_mass(self) -> np.ndarray:
        return self.participation**2

    def scipy_matrices(self) -> tuple[sp.csr_matrix, sp.csr_matrix]:
        """K and M on every DOF as SciPy matrices (copies: only the harmonic full method, a validation path,
        asks for them)."""
        n = self.elasticity.fes.ndof
        if self.blocked:  # assembled again in VectorH1's layout
            a, m = self.elasticity.stiffness(), self.elasticity.mass()
            a.Assemble()
            m.Assemble()
            return _scipy(a.mat, n), _scipy(m.mat, n)
        M = _scipy(self.mass, n)
        return _scipy(self.stiffness, n) - self.shift * M, M


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


def direct_memory_bytes(ndof: int) -> float:
    return _DIRECT_BASE_BYTES + _DIRECT_BYTES_PER_N43 * ndof ** (4 / 3)


def eigen_method(
    choice: str, ndof: int, min_frequency: float | None, memory_limit_mb: int | None = None
) -> str:
    """ "direct" (shift-and-invert Lanczos on a sparse factor) or "lobpcg" (two-level preconditioner, no factor
    of the whole matrix). A lowest frequency of interest needs the shift-and-invert: LOBPCG finds the lowest
    modes only. `auto` factors when the model is small enough and the factor fits the memory limit."""
    if min_frequency or choice == "direct":
        return "direct"
    if choice == "auto":
        fits = memory_limit_mb is None or direct_memory_bytes(ndof) <= memory_limit_mb * 1024 * 1024
        return "direct" if ndof <= DIRECT_MAX_DOFS and fits else "lobpcg"
    return "lobpcg"


def solve_modes(
    mesh: ng.Mesh,
    setup: ElasticSetup,
    materials: MaterialTable,
    order: int,
    count: int,
    rigid: int,
    min_frequency: float | None,
    progress: ProgressSpan = SILENT,
    solver: str = "auto",
    max_iterations: int | None = None,
    prestress: ng.CoefficientFunction | None = None,
) -> ModalResult:
    """`prestress`: an initial stress (3 × 3) whose geometric stiffness joins K (core/elasticity/prestress.py);
    the modes then vibrate about the loaded state, so prescribed displacements (which loaded it) are held."""
    if not 1 <= count <= MAX_MODES:
        raise InvalidInput(f"modalNumModes must be between 1 and {MAX_MODES}.")
    if prestress is None and any(v not in (None, 0.0) for s in setup.supports for v in s.values):
        raise InvalidInput(
            "A modal analysis vibrates about the unloaded state: displacement conditions must be 0 (or null), "
            "not a prescribed motion."
        )
    started = time.perf_counter()
    fixed = component_dirichlet(setup)
    probe = ng.VectorH1(mesh, order=order, **fixed.flags())
    if probe.ndof > MAX_DOFS:
        raise EngineError("too_large", f"The eigenproblem has {probe.ndof} unknowns (limit {MAX_DOFS}).")
    method = eigen_method(solver, probe.ndof, min_frequency, address_space_limit_mb())
    elasticity = Elasticity(mesh, materials, order, fixed)
    elasticity.prestress = prestress
    fes = elasticity.fes
    free = bits.indices(fes.FreeDofs())
    wanted = count + (0 if min_frequency else rigid)
    wanted = min(wanted, len(free) - 2)
    info: dict = {}
    blocked = False
    if method == "direct":
        # Node-blocked K and M (3 × 3 blocks) when every support fixes all components: a third of the sparsity
        # graph, a faster factor and solve (vibration/node_blocks.py). NGSolve's block factor can break down on
        # thin parts (elements far thinner than long): then VectorH1's scalar matrices are factored instead.
        for blocked in (True, False) if node_blocks.all_components(fixed) else (False,):
            if blocked:
                space = node_blocks.blocked_space(mesh, order, fixed)
                a, m = node_blocks.blocked_forms(elasticity, space)
                solve_free = node_blocks.free_components(space)
            else:
                space = fes
                a, m = elasticity.stiffness(), elasticity.mass()
                solve_free = free
            progress(0.05, f"Assembling stiffness and mass ({fes.ndof} DOFs)")
            with parallel(fes.ndof):
                a.Assemble()
                m.Assemble()
            K = FreeBlock(a.mat, a.mat, solve_free, fes.ndof)
            M = FreeBlock(m.mat, a.mat, solve_free, fes.ndof)
            try:
                values, vectors, iterations, sigma = _lanczos(
                    a.mat, m.mat, space, solve_free, M, wanted, min_frequency, progress, 3 if blocked else 1
                )
                break
            except InaccurateFactor as exc:
                if not blocked:
                    raise EngineError(
                        "eigen_inaccurate_factor",
                        f"The sparse factor of the shifted stiffness is inaccurate (a test solve's relative "
                        f"residual is {exc.residual:.1e}): the model is too ill-conditioned for the direct eigen "
                        "solve, typically elements far thinner than they are long. Mesh finer through the "
                        "thickness, or use a lower element order.",
                    ) from exc
                info["factor_fallback"] = (
                    f"the 3 × 3 node-block factor was inaccurate (test residual {exc.residual:.1e}); "
                    "factored the scalar matrices instead"
                )
        shift = -sigma  # a.mat now holds K − σM
        info["eigen_solver"] = "shift-and-invert Lanczos (ARPACK), sparse Cholesky factor" + (
            " (3 × 3 node blocks)" if blocked else ""
        )
    else:
        # A free or partly free body has a singular K: precondition K + sM (s far below the first elastic
        # eigenvalue) and solve with it; ω² = μ − s. The same node-blocked matrices as the direct path when
        # the supports allow them (faster mat-vecs and sweeps).
        shift = _small_shift(mesh, materials) if rigid else 0.0
        blocked = node_blocks.all_components(fixed)
        if blocked:
            space = node_blocks.blocked_space(mesh, order, fixed)
            a, m = node_blocks.blocked_forms(elasticity, space, mass_shift=shift)
            solve_free = node_blocks.free_components(space)
        else:
            space = fes
            a, m = elasticity.stiffness(mass_shift=shift), elasticity.mass()
            solve_free = free
        progress(0.05, f"Assembling stiffness and mass ({fes.ndof} DOFs)")
        with parallel(fes.ndof):
            a.Assemble()
            m.Assemble()
        progress(0.2, "Two-level preconditioner: factorizing the vertex (linear-element) problem")
        with parallel(fes.ndof):
            coarse = vertex_dofs(space, mesh.nv, 1 if blocked else 3)
            pre = GaussSeidelTwoLevel(a.mat, space.FreeDofs(), coarse)
        K = FreeBlock(a.mat, a.mat, solve_free, fes.ndof)
        M = FreeBlock(m.mat, a.mat, solve_free, fes.ndof)
        T = FreeBlock(pre, a.mat, solve_free, fes.ndof)
        block = wanted + max(4, wanted // 2)
        progress(0.3, f"LOBPCG: {wanted} modes (block of {block})")

        def report(it: int, done: int) -> None:
            progress(0.3 + 0.6 * min(1.0, done / wanted), f"LOBPCG iteration {it}: {done} of {wanted} modes")

        limit = max_iterations or LOBPCG_MAX_ITERATIONS
        with reuse_freed_blocks():  # its n × block temporaries, made and freed every iteration (core/heap.py)
            result = lobpcg(K, M, T, len(solve_free), block, wanted, LOBPCG_TOLERANCE, limit, report)
        values, vectors, iterations = (
            result.values[:wanted] - shift,
            result.vectors[:, :wanted],
            result.iterations,
        )
        info["eigen_solver"] = (
            "LOBPCG, two-level preconditioner (symmetric Gauss–Seidel, sparse Cholesky of the vertex DOFs)"
            + (" (3 × 3 node blocks)" if blocked else "")
        )
        info["eigen_block_size"] = block
    order_idx = np.argsort(values)
    values, vectors = values[order_idx], vectors[:, order_idx]
    Mv = M(vectors)
    norms = np.sqrt(np.einsum("ij,ij->j", vectors, Mv))
    vectors, Mv = vectors / norms, Mv / norms  # φᵀMφ = 1
    # Relative to the largest eigenvalue found, so rigid modes (λ ≈ 0) are judged on the same scale.
    scale = max(float(np.max(np.abs(values))), 1e-300)
    Kv = K(vectors) - shift * Mv
    residuals = np.linalg.norm(Kv - Mv * values, axis=0) / (np.linalg.norm(Mv, axis=0) * scale)
    del Kv, Mv
    if method == "lobpcg":
        info["eigen_residuals"] = [float(r) for r in residuals]
        converged = int(np.argmin(np.append(residuals <= 10 * LOBPCG_TOLERANCE, False)))
        if converged < wanted:
            found = ", ".join(
                f"{math.sqrt(max(v, 0)) / (2 * math.pi):.4g} Hz (residual {r:.1e})"
                for v, r in zip(values[:converged], residuals[:converged], strict=True)
            )
            raise EngineError(
                "eigen_no_convergence",
                f"LOBPCG converged for {converged} of {wanted} modes after {iterations} iterations"
                + (f": {found}" if found else "")
                + f". Largest residual {float(np.max(residuals)):.1e} (tolerance {LOBPCG_TOLERANCE:g}). Ask for "
                'fewer modes or use linearSolver "direct".',
            )
    if blocked:
        full_blocked = np.zeros((fes.ndof, len(values)))
        full_blocked[solve_free] = vectors
        del vectors
        r = node_blocks.translations(mesh.nv, fes.ndof // 3)
        Mr = M.full(r)
        participation = full_blocked.T @ Mr  # φᵀ M r (φ mass-normalised)
        full = node_blocks.to_component_major(full_blocked)  # the layout of Elasticity's VectorH1
        del full_blocked
    else:
        full = np.zeros((fes.ndof, len(values)))
        full[free] = vectors
        del vectors
        r = translations(fes)
        Mr = M.full(r)
        participation = full.T @ Mr
    total_mass = np.einsum("ij,ij->j", r, Mr)
    return ModalResult(
        elasticity=elasticity,
        eigenvalues=values,
        vectors=full,
        rigid=0 if min_frequency else min(rigid, len(values)),
        residuals=residuals,
        participation=participation,
        total_mass=total_mass,
        non_zeros=int(a.mat.nze) * (9 if blocked else 1),
        iterations=iterations,
        seconds=time.perf_counter() - started,
        stiffness=a.mat,
        mass=m.mat,
        shift=shift,
        free=free,
        method=method,
        info=info,
        blocked=blocked,
    )


def _small_shift(mesh: ng.Mesh, materials: MaterialTable) -> float:
    """s = 10⁻⁶ · (E/ρ) / L² (L the bounding box diagonal): far below any elastic ω² of the body (the first is
    of order (E/ρ)/L² times its slenderness squared), far above round-off on the rigid modes."""
    E = ng.Integrate(materials.coefficient(mesh, "youngsModulus"), mesh)
    rho = ng.Integrate(materials.coefficient(mesh, "density"), mesh)
    points = np.array([v.point for v in mesh.vertices])
    length = float(np.linalg.norm(points.max(axis=0) - points.min(axis=0)))
    return 1e-6 * (E / rho) / length**2


def _lanczos(k_mat, m_mat, fes, free, M: FreeBlock, wanted, min_frequency, progress, width=1):
    """Shift-and-invert Lanczos. K is overwritten by K − σM, which is factored (ARPACK's mode 3 needs only
    (K − σM)⁻¹ and M, so no second matrix is kept); returns the eigenpairs, the iterations and σ."""
    sigma = (
        (2 * math.pi * min_frequency) ** 2
        if min_frequency
        else -1e-9 * _mean_ratio(k_mat, m_mat, fes, free, width)
    )
    progress(0.2, "Factorizing the shifted system")
    k_mat.AsVector().data -= sigma * m_mat.AsVector()  # one fes, one sparsity pattern
    op = _shift_invert(k_mat, fes, free, sigma)
    progress(0.4, f"Lanczos: {wanted} modes")
    iterations = [0]

    def counted(x):
        iterations[0] += 1
        return op(x)

    n = len(free)
    inverse = LinearOperator((n, n), matvec=counted, dtype=np.float64)
    # ARPACK asks for M x 3–4 times per (K − σM)⁻¹ x: on a small system the product's Python overhead counts, on a
    # large one the copy's memory would (nnz × 12 bytes).
    product = free_csr(m_mat, free, width).__matmul__ if n <= MASS_CSR_MAX_FREE else M
    mass = LinearOperator((n, n), matvec=product, dtype=np.float64)
    # The operator A itself is never applied in mode 3; eigsh takes its shape.
    unused = LinearOperator((n, n), matvec=lambda x: x, dtype=np.float64)
    try:
        values, vectors = eigsh(
            unused,
            k=wanted,
            M=mass,
            sigma=sigma,
            which="LM",
            OPinv=inverse,
            tol=LANCZOS_TOLERANCE,
            ncv=min(n - 1, max(2 * wanted + 3, 20)),
            v0=np.random.default_rng(0).standard_normal(n),  # the same job gives the same digits
        )
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
    return values, vectors, iterations[0], sigma


def free_csr(mat: ng.BaseMatrix, free: np.ndarray, width: int = 1) -> CsrArrays:
    """A fully stored matrix's rows and columns `free` (scalar numbering; `width` × `width` node blocks are
    expanded, node-major) as CSR arrays multiplied by SciPy's kernel: ≈ 10 µs a product at a few hundred
    unknowns where scattering into an NGSolve vector, multiplying and gathering (FreeBlock) took ≈ 60 µs."""
    vals, cols, ptr = mat.CSR()
    values = np.asarray(vals).reshape(-1, width, width)
    block_cols = np.asarray(cols, dtype=np.int64)
    block_rows = np.repeat(np.arange(len(ptr) - 1, dtype=np.int64), np.diff(np.asarray(ptr, dtype=np.int64)))
    k = np.arange(width)
    rows = np.broadcast_to(width * block_rows[:, None, None] + k[None, :, None], values.shape).ravel()
    columns = np.broadcast_to(width * block_cols[:, None, None] + k[None, None, :], values.shape).ravel()
    renumber = np.full(width * (len(ptr) - 1), -1, dtype=np.int64)
    renumber[free] = np.arange(len(free))
    r, c = renumber[rows], renumber[columns]
    keep = (r >= 0) & (c >= 0)
    r, c, data = r[keep], c[keep], values.ravel()[keep]
    in_order = np.all(r[1:] >= r[:-1]) and np.all((c[1:] > c[:-1]) | (r[1:] > r[:-1]))
    if not in_order:  # node blocks interleave their rows; scalar rows come sorted (≈ 1 ms of lexsort saved)
        order = np.lexsort((c, r))
        r, c, data = r[order], c[order], data[order]
    indptr = np.zeros(len(free) + 1, dtype=np.int32)
    np.cumsum(np.bincount(r, minlength=len(free)), out=indptr[1:])
    return CsrArrays(
        np.ascontiguousarray(data, dtype=np.float64),
        c.astype(np.int32),
        indptr,
        (len(free),) * 2,
    )


def _mean_ratio(
    k_mat: ng.BaseMatrix, m_mat: ng.BaseMatrix, fes: ng.FESpace, free: np.ndarray, width: int = 1
) -> float:
    """The mean of K_ii / M_ii over the free DOFs: the scale of the eigenvalues, for a shift below them all.
    The diagonals come from Jacobi smoothers applied to ones (no copy of the matrices); with node blocks
    (width 3) a block's three entries are summed."""
    ones = k_mat.CreateColVector()
    ones[:] = 1.0
    out = k_mat.CreateColVector()
    inverse_diagonals = []
    for mat in (k_mat, m_mat):
        out.data = mat.CreateSmoother(fes.FreeDofs()) * ones
        inverse_diagonals.append(out.FV().NumPy()[free].reshape(-1, width).sum(axis=1))
    return float(np.mean(inverse_diagonals[1] / np.maximum(inverse_diagonals[0], 1e-300)))


def _shift_invert(shifted: ng.BaseMatrix, fes: ng.FESpace, free: np.ndarray, sigma: float):
    """x ↦ (K − σM)⁻¹ x on the free DOFs: NGSolve's sparse Cholesky of the assembled K − σM when the shift is
    below every eigenvalue (5× less CPU than CHOLMOD's simplicial factor through cholespy, measured on a 43k-DOF
    cantilever at order 2), else NGSolve's default sparse LU."""
    with parallel(fes.ndof):
        if sigma < 0:
            inverse = shifted.Inverse(fes.FreeDofs(), inverse="sparsecholesky")
        else:
            inverse = shifted.Inverse(fes.FreeDofs())
    rhs, out = shifted.CreateColVector(), shifted.CreateColVector()
    rhs[:] = 0.0
    rhs_np, out_np = rhs.FV().NumPy(), out.FV().NumPy()
    _check_factor(shifted, inverse, fes, free, rhs, out)

    def solve(x):
        rhs_np[free] = x
        with parallel(fes.ndof):
            out.data = inverse * rhs
        return out_np[free].copy()

    return solve


# Up to this many free unknowns the Lanczos iteration multiplies by M's free block as CSR arrays (free_csr).
MASS_CSR_MAX_FREE = 20_000

# A test solve with (K − σM)'s factor must reproduce its right-hand side to this relative residual. A sound
# factor of a thin plate's system (one element through 0.2 mm, 12.5 : 1 elements) gives 1e-13–1e-11; a broken
# one gives 1e-1 and worse (NGSolve's 3 × 3 block Cholesky on that plate: frequencies of 0 Hz, residual 1e7).
FACTOR_TEST_RESIDUAL = 1e-6


class InaccurateFactor(Exception):
    def __init__(self, residual: float):
        super().__init__(f"test residual {residual:.1e}")
        self.residual = residual


def _check_factor(shifted, inverse, fes, free: np.ndarray, rhs, out) -> None:
    """Solves with a random right-hand side and raises InaccurateFactor when the residual is not small."""
    b = np.random.default_rng(1).standard_normal(len(free))
    rhs.FV().NumPy()[free] = b
    with parallel(fes.ndof):
        out.data = inverse * rhs
        rhs.data = shifted * out
    residual = rhs.FV().NumPy()[free] - b
    rhs[:] = 0.0
    relative = float(np.linalg.norm(residual) / np.linalg.norm(b))
    if not np.isfinite(relative) or relative > FACTOR_TEST_RESIDUAL:
        raise InaccurateFactor(relative if np.isfinite(relative) else float("inf"))
