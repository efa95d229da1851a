"""Cavity eigenmodes without a factorization of the whole system: LOBPCG on curl-curl, preconditioned by BDDC
and kept in the discretely divergence-free space by a gradient projection solved with CG.

K e = k² M e has the discrete gradients as its kernel (k² = 0, a third or more of the unknowns), so a method
that finds the lowest eigenvalues would find only those. Every vector LOBPCG adds to its basis (the start
block and each preconditioned residual) is projected, P = I − G (GᵀMG)⁻¹ GᵀM with G the gradient matrix of
the matching H1 space; the basis then lies in ker(GᵀM), where the lowest eigenvalues are the physical modes.
GᵀMG is the ε-weighted H1 Laplacian, solved by CG with BDDC (its wirebasket, the vertex DOFs, factorized). CG's
preconditioned residual √(rᵀ C r) with C ≈ (GᵀMG)⁻¹ measures the gradient left in x in the M-norm, so each solve
stops when that is below PROJECTION_LEAK · ‖x‖_M. (BDDC's output carries gradients of the order of the vector
itself, so this saves only ≈ 6 % of the CG iterations of a relative 1e-10; the leak left changes k² by ≈ 1e-18.)

LOBPCG works on the shifted pencil (K + τM, M) with τ ≈ the lowest mode's k², so the operator is SPD and BDDC
(built on it, its wirebasket the lowest-order Nédélec edges) preconditions it well; k² = μ − τ. The memory is
linear in the unknowns: the matrices, BDDC's local matrices and coarse factors, the H1 Laplacian and about
ten n × block work arrays. Only lossless cavities with PEC/PMC walls (real symmetric) take this path; lossy ones
go to shift-and-invert Arnoldi with GMRES inner solves (eigen.py, eigen_shift_invert.py).
"""

import math
import time
from dataclasses import dataclass, field

import ngsolve as ng
import numpy as np

from fieldline_engine.core import bits
from fieldline_engine.core.eigen.free_block import FreeBlock
from fieldline_engine.core.eigen.lobpcg import lobpcg
from fieldline_engine.core.heap import reuse_freed_blocks
from fieldline_engine.em.constants import C0
from fieldline_engine.em.fullwave.media import Media
from fieldline_engine.errors import EngineError
from fieldline_engine.limits import parallel
from fieldline_engine.protocol import SILENT, ProgressSpan

# ‖Kx − λMx‖ / (‖Mx‖ · max λ) per mode: the eigenvalue error is about its square (≈ 1e-14), far below the
# discretisation error; frequencies agree with the direct path to ≈ 1e-9 (tests/fullwave/test_cavity_eigen.py).
LOBPCG_TOLERANCE = 1e-7
LOBPCG_MAX_ITERATIONS = 300
# Each H1 Laplacian solve of the projection stops at a gradient left in x below PROJECTION_LEAK · ‖x‖_M.
PROJECTION_LEAK = 1e-9
PROJECTION_MAX_ITERATIONS = 500


@dataclass
class IterativeEigenResult:
    k_squared: np.ndarray  # ascending, the converged modes
    vectors: np.ndarray  # (ndof, m) on every DOF, zero on the fixed ones
    residuals: list[float]
    iterations: int
    info: dict = field(default_factory=dict)


class Gradient:
    """The discrete gradient G: H1 → HCurl (fes.CreateGradient()) and its transpose, on real or complex vectors.

    G is a real sparse matrix, and NGSolve's product of a real matrix with a complex vector reads the complex
    entries as pairs of reals (wrong, silently: the lossy direct path returned spurious modes near k² ≈ σ/4),
    so complex vectors go through it as their real and imaginary parts."""

    def __init__(self, fes: ng.FESpace):
        self.mat, self.h1 = fes.CreateGradient()
        self.complex = fes.is_complex
        if self.complex:
            self.h1_real = self.mat.CreateRowVector()  # real work vectors, one per side
            self.hcurl_real = self.mat.CreateColVector()
            self.h1_out = self.mat.CreateRowVector()
            self.hcurl_out = self.mat.CreateColVector()

    def apply(self, u: ng.BaseVector, out: ng.BaseVector) -> None:
        """out = G u (H1 → HCurl)."""
        if not self.complex:
            out.data = self.mat * u
            return
        self._split(self.mat, u, out, self.h1_real, self.hcurl_out)

    def apply_transpose(self, x: ng.BaseVector, out: ng.BaseVector) -> None:
        """out = Gᵀ x (HCurl → H1)."""
        if not self.complex:
            out.data = self.mat.T * x
            return
        self._split(self.mat.T, x, out, self.hcurl_real, self.h1_out)

    @staticmethod
    def _split(
        op, x: ng.BaseVector, out: ng.BaseVector, real_in: ng.BaseVector, real_out: ng.BaseVector
    ) -> None:
        xs, os = x.FV().NumPy(), out.FV().NumPy()
        real_in.FV().NumPy()[:] = xs.real
        real_out.data = op * real_in
        os[:] = real_out.FV().NumPy()
        real_in.FV().NumPy()[:] = xs.imag
        real_out.data = op * real_in
        os.imag = real_out.FV().NumPy()


class GradientProjector:
    """x ← x − G (GᵀMG)⁻¹ GᵀM x with the Laplacian solved by CG + BDDC; counts the CG iterations.

    With loss (ε complex, M complex symmetric, not Hermitian) the Laplacian is complex symmetric: CG then runs
    without conjugation (COCG), which converges for these as CG does for SPD ones, and ‖x‖_M reads |xᴴMx|."""

    def __init__(self, fes: ng.FESpace, m_mat: ng.BaseMatrix, eps: ng.CoefficientFunction):
        self.grad = Gradient(fes)
        h1 = self.grad.h1
        u, v = h1.TnT()
        lap = ng.BilinearForm(h1, symmetric=True, symmetric_storage=True)
        lap += (eps * ng.grad(u)) * ng.grad(v) * ng.dx
        free = ng.BitArray(h1.FreeDofs())
        pinned = free.NumSet() == h1.ndof
        if pinned:  # no PEC: constants are in the kernel; pin one vertex (∇const = 0)
            free.Clear(0)
        bddc = None if pinned else ng.Preconditioner(lap, "bddc")
        with parallel(h1.ndof):
            lap.Assemble()
        # BDDC would factorize the singular wirebasket of a Laplacian without Dirichlet faces; the pinned
        # one (a cavity bounded by magnetic walls only, not a physical case) gets Jacobi instead.
        pre = lap.mat.CreateSmoother(free) if pinned else bddc.mat
        self.h1_ndof = h1.ndof
        self.m_mat = m_mat
        self.solver = ng.solvers.CGSolver(
            mat=lap.mat,
            pre=pre,
            tol=None,
            atol=1.0,  # set per vector (PROJECTION_LEAK · ‖x‖_M)
            maxiter=PROJECTION_MAX_ITERATIONS,
            printrates=False,
        )
        self.mx = m_mat.CreateColVector()
        self.gt = lap.mat.CreateColVector()
        self.corr = lap.mat.CreateColVector()
        self.gcorr = m_mat.CreateColVector()
        self.solves = 0
        self.cg_iterations = 0  # CGSolver's default conjugate=False: COCG on a complex Laplacian
        self.worst_residual = 0.0

    def __call__(self, x: ng.BaseVector) -> None:
        with parallel(self.h1_ndof):
            self.mx.data = self.m_mat * x
            norm_m = math.sqrt(abs(ng.InnerProduct(x, self.mx, conjugate=True)))
            self.grad.apply_transpose(self.mx, self.gt)
            self.corr[:] = 0.0
            self.solver.atol = PROJECTION_LEAK * norm_m
            self.solver.Solve(rhs=self.gt, sol=self.corr, initialize=True)
            self.grad.apply(self.corr, self.gcorr)
            x.data -= self.gcorr
        self.solves += 1
        self.cg_iterations += self.solver.iterations
        last = self.solver.residuals[-1] if self.solver.residuals else 0.0
        leak = last / norm_m if norm_m > 0 else 0.0  # the gradient left, relative to ‖x‖_M
        self.worst_residual = max(self.worst_residual, float(leak))
        if last > self.solver._final_residual:
            raise EngineError(
                "eigen_no_convergence",
                f"The gradient projection's Laplacian solve stalled: gradient left {leak:.1e} of the vector after "
                f"{self.solver.iterations} CG iterations. Use linearSolver 'direct' or a better-shaped mesh.",
            )


def lobpcg_cavity_modes(
    fes: ng.FESpace,
    media: Media,
    n_modes: int,
    k_shift_squared: float,
    progress: ProgressSpan = SILENT,
    max_iterations: int | None = None,
) -> IterativeEigenResult:
    """The `n_modes` lowest physical k² of a lossless cavity (fes real, PEC walls its Dirichlet faces)."""
    started = time.perf_counter()
    tau = k_shift_squared
    E, W = fes.TnT()
    shifted = ng.BilinearForm(fes, symmetric=True, symmetric_storage=True)
    shifted += (media.inv_mu_r * ng.curl(E)) * ng.curl(W) * ng.dx + tau * (media.eps_r * E) * W * ng.dx
    mass = ng.BilinearForm(fes, symmetric=True, symmetric_storage=True)
    mass += (media.eps_r * E) * W * ng.dx
    bddc = ng.Preconditioner(shifted, "bddc")  # registered before assembly: built from the element matrices
    progress(0.05, f"Assembling curl-curl, mass and BDDC ({fes.ndof} unknowns)")
    with parallel(fes.ndof):
        shifted.Assemble()
        mass.Assemble()
    progress(0.2, "Gradient projection: H1 Laplacian with BDDC")
    project = GradientProjector(fes, mass.mat, media.eps_r)
    free = bits.indices(fes.FreeDofs())
    A = FreeBlock(shifted.mat, shifted.mat, free, fes.ndof)
    M = FreeBlock(mass.mat, shifted.mat, free, fes.ndof)
    T = FreeBlock(bddc.mat, shifted.mat, free, fes.ndof)
    work = shifted.mat.CreateColVector()
    work_np = work.FV().NumPy()

    def precondition(block: np.ndarray) -> np.ndarray:
        out = T(block)
        for j in range(out.shape[1]):
            work_np[:] = 0.0
            work_np[free] = out[:, j]
            project(work)
            out[:, j] = work_np[free]
        return out

    wanted = min(n_modes, len(free) - 2)
    block = wanted + max(4, wanted // 2)
    progress(0.3, f"LOBPCG: {wanted} modes (block of {block})")

    def report(it: int, done: int) -> None:
        progress(0.3 + 0.6 * min(1.0, done / wanted), f"LOBPCG iteration {it}: {done} of {wanted} modes")

    limit = max_iterations or LOBPCG_MAX_ITERATIONS
    with reuse_freed_blocks():  # n × block temporaries made and freed every iteration (core/heap.py)
        result = lobpcg(A, M, precondition, len(free), block, wanted, LOBPCG_TOLERANCE, limit, report)
    k2 = result.values[:wanted] - tau
    residuals = [float(r) for r in result.residuals[:wanted]]
    info = {
        "eigen_solver": "LOBPCG, BDDC preconditioner on curl-curl + τ·mass, gradient projection by CG + BDDC",
        "eigen_block_size": block,
        "eigen_iterations": result.iterations,
        "eigen_residuals": [float(f"{r:.3e}") for r in residuals],
        "eigen_tolerance": LOBPCG_TOLERANCE,
        "eigen_shift_k_squared": tau,
        "projection_solves": project.solves,
        "projection_cg_iterations": project.cg_iterations,
        "projection_worst_leak": float(f"{project.worst_residual:.3e}"),
        "eigen_seconds": round(time.perf_counter() - started, 3),
        "non_zeros": int(shifted.mat.nze),  # symmetric storage: the lower triangle
    }
    if result.converged < wanted:
        found = ", ".join(
            f"{_frequency(v):.6g} Hz (residual {r:.1e})"
            for v, r in zip(k2[: result.converged], residuals[: result.converged], strict=True)
        )
        raise EngineError(
            "eigen_no_convergence",
            f"LOBPCG converged for {result.converged} of {wanted} cavity modes after {result.iterations} "
            f"iterations{': ' + found if found else ''}. Largest residual {max(residuals):.1e} (tolerance "
            f"{LOBPCG_TOLERANCE:g}). Ask for fewer modes, refine the mesh or use linearSolver 'direct'.",
        )
    vectors = np.zeros((fes.ndof, wanted))
    vectors[free] = result.vectors[:, :wanted]
    return IterativeEigenResult(k2, vectors, residuals, result.iterations, info)


def _frequency(k_squared: float) -> float:
    return C0 * math.sqrt(max(k_squared, 0.0)) / (2 * math.pi)
