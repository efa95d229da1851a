"""Cavity eigenmodes: K e = k² M e in HCurl with PEC walls, by shift-and-invert Arnoldi.

The curl-curl operator has a huge kernel (all discrete gradients, k² = 0). Every Arnoldi vector is
projected onto the discretely divergence-free space, P = I − G (GᵀMG)⁻¹ GᵀM with G the gradient
matrix of the matching H1 space, so no spurious zero modes can appear whatever the shift.
With impedance walls the projection is skipped (see below) and the shift must be near the wanted modes.
Loss (σ, tanδ) and impedance walls make the problem complex; their frequency dependence is frozen at
the shift frequency (exact for tanδ, first order for σ and Leontovich walls: fine for high-Q modes).
Q = Re ω / (2 Im ω) for e^{+jωt}.
Too large to factor: a lossless cavity goes to LOBPCG (eigen_iterative.py); a lossy one runs this same Arnoldi
iteration on the same pencil and shift with each (K − σM)⁻¹ a GMRES + BDDC solve (eigen_shift_invert.py) and
the projection's Laplacian solved by CG + BDDC, so both paths return the same modes.
"""

import math
import time
from dataclasses import dataclass, field

import ngsolve as ng
import numpy as np
from scipy.sparse.linalg import ArpackNoConvergence, LinearOperator, eigs

from fieldline_engine.core import bits
from fieldline_engine.em.constants import C0, ETA0
from fieldline_engine.em.fullwave.eigen_iterative import Gradient, GradientProjector, lobpcg_cavity_modes
from fieldline_engine.em.fullwave.eigen_shift_invert import RESIDUAL_LIMIT, ShiftedSolve
from fieldline_engine.em.fullwave.iterative import ITERATIVE_CHOICES
from fieldline_engine.em.fullwave.media import Media
from fieldline_engine.em.fullwave.solver import MAX_DIRECT_DOFS, ImpedanceWall
from fieldline_engine.errors import EngineError, InvalidInput
from fieldline_engine.limits import parallel
from fieldline_engine.protocol import SILENT, ProgressSpan

# `linearSolver: auto` factorizes the shifted system up to this many unknowns when the factor fits the job's
# memory limit, and runs LOBPCG (eigen_iterative.py) beyond. contracts/src/resources.ts mirrors this choice.
EIGEN_DIRECT_MAX_DOFS = 100_000
# Peak memory of the direct path (contracts/src/resources.ts MEMORY_MODEL.eigenDirect; complex doubles it):
# 2.04 GB at 73 k unknowns, more than 12 GB at 367 k (bench/scale/eigen.py).
_DIRECT_BASE_BYTES = 1.0e9
_DIRECT_BYTES_PER_N43 = 450


@dataclass
class CavityMode:
    k_squared: complex  # rad²/m²
    frequency: float  # Hz
    q_factor: float | None  # None for a lossless cavity
    field: ng.GridFunction
    matrix_nze: int = 0  # non-zeros of the shifted system (solver_info)


@dataclass
class CavitySolution:
    modes: list[CavityMode]
    method: str  # "direct" or "iterative"
    info: dict = field(default_factory=dict)  # solver_info entries of the eigen solve


def direct_memory_bytes(ndof: int, lossy: bool) -> float:
    return _DIRECT_BASE_BYTES + _DIRECT_BYTES_PER_N43 * (2 if lossy else 1) * ndof ** (4 / 3)


def eigen_method(choice: str, ndof: int, lossy: bool, memory_limit_mb: int | None = None) -> str:
    """'direct' (shift-and-invert Arnoldi on a sparse LU) or 'iterative' (LOBPCG + BDDC for a lossless cavity,
    shift-and-invert Arnoldi with GMRES + BDDC inner solves for a lossy one). `auto` factorizes a small model
    whose factor (complex, twice the size, when lossy) fits the memory limit."""
    if choice == "direct":
        return "direct"
    if choice in ITERATIVE_CHOICES:
        return "iterative"
    fits = memory_limit_mb is None or direct_memory_bytes(ndof, lossy) <= memory_limit_mb * 1024 * 1024
    return "direct" if ndof <= EIGEN_DIRECT_MAX_DOFS and fits else "iterative"


def cavity_modes(
    mesh: ng.Mesh,
    media: Media,
    order: int,
    pec: str,
    n_modes: int = 6,
    shift_frequency: float | None = None,
    walls: list[ImpedanceWall] | None = None,
    inverse: str = "umfpack",
    linear_solver: str = "direct",
) -> list[CavityMode]:
    return cavity_eigen(
        mesh, media, order, pec, n_modes, shift_frequency, walls, inverse, linear_solver
    ).modes


def cavity_eigen(
    mesh: ng.Mesh,
    media: Media,
    order: int,
    pec: str,
    n_modes: int = 6,
    shift_frequency: float | None = None,
    walls: list[ImpedanceWall] | None = None,
    inverse: str = "umfpack",
    linear_solver: str = "direct",
    memory_limit_mb: int | None = None,
    progress: ProgressSpan = SILENT,
) -> CavitySolution:
    walls = walls or []
    lossy = media.lossy or bool(walls)
    fes = (
        ng.HCurl(mesh, order=order, complex=lossy, dirichlet=pec)
        if pec
        else ng.HCurl(mesh, order=order, complex=lossy)
    )
    method = eigen_method(linear_solver, fes.ndof, lossy, memory_limit_mb)
    if method == "iterative" and not lossy:
        return _iterative_modes(mesh, media, fes, n_modes, shift_frequency, progress)
    if method == "direct" and fes.ndof > MAX_DIRECT_DOFS:
        raise EngineError(
            "too_large",
            f"The eigenproblem has {fes.ndof} unknowns (limit {MAX_DIRECT_DOFS} for the direct solver). "
            "Use linearSolver 'auto'.",
        )
    if shift_frequency is None or shift_frequency <= 0:
        # Without the gradient projection (impedance walls) the shift itself must keep the gradient
        # cluster at k² ≈ 0 away, so aim at the estimate instead of below it.
        shift_frequency = _lowest_box_resonance(mesh, media) * (1.0 if walls else 0.5)
    k_shift = 2 * math.pi * shift_frequency / C0
    sigma_shift = k_shift**2
    iterative = method == "iterative"  # lossy here: shift-and-invert with GMRES + BDDC inner solves

    E, W = fes.TnT()
    eps = media.eps_r
    if media.lossy:  # εc = εr − jσ/(ωε0) frozen at the shift: −k²εc = −k²εr + j k η0 σ
        eps = eps - 1j * ETA0 / k_shift * media.sigma
    # complex symmetric (Aᵀ = A): the iterative path stores half, the factorization wants the whole matrix
    storage = {"symmetric": True, "symmetric_storage": True} if iterative else {}
    m = ng.BilinearForm(fes, **storage)
    m += (eps * E) * W * ng.dx
    shifted = ng.BilinearForm(fes, **storage)
    shifted += (media.inv_mu_r * ng.curl(E)) * ng.curl(W) * ng.dx - sigma_shift * (eps * E) * W * ng.dx
    for wall in walls:
        shifted += (
            (1j * k_shift * ETA0 / complex(wall.impedance(shift_frequency)))
            * E.Trace()
            * W.Trace()
            * ng.ds(wall.label)
        )
    bddc = ng.Preconditioner(shifted, "bddc") if iterative else None  # registered before assembly
    progress(0.05, f"Assembling the shifted system ({fes.ndof} unknowns)")
    with ng.TaskManager():
        m.Assemble()
        shifted.Assemble()
    free = fes.FreeDofs()
    if iterative:
        solve = ShiftedSolve(shifted, bddc)
    else:
        inv = shifted.mat.Inverse(free, inverse=inverse)

        def solve(rhs: ng.BaseVector, sol: ng.BaseVector) -> None:
            sol.data = inv * rhs

    # Impedance walls make gradients non-orthogonal to the physical modes (boundary term), so the
    # projection would cut into them; there the shift alone keeps the near-zero cluster out of reach.
    if walls:
        project = lambda _x: None  # noqa: E731
    elif iterative:
        project = GradientProjector(fes, m.mat, eps)
    else:
        project = _gradient_projector(fes, m.mat, eps, lossy)

    free_idx = bits.indices(free)
    n = len(free_idx)
    dtype = complex if lossy else float
    x_vec = m.mat.CreateColVector()
    y_vec = m.mat.CreateColVector()
    applied = [0]

    def apply(x: np.ndarray) -> np.ndarray:
        full = np.zeros(fes.ndof, dtype=dtype)
        full[free_idx] = x
        x_vec.FV().NumPy()[:] = full
        project(x_vec)
        y_vec.data = m.mat * x_vec
        solve(y_vec, x_vec)
        project(x_vec)
        applied[0] += 1
        if iterative:
            progress(0.1 + 0.8 * min(1.0, applied[0] / 60), f"Shift-and-invert Arnoldi: {applied[0]} solves")
        return x_vec.FV().NumPy()[free_idx].copy()

    op = LinearOperator((n, n), matvec=apply, dtype=complex if lossy else float)
    want = min(n_modes + 2, n - 2)
    started = time.perf_counter()
    try:
        nu, vecs = eigs(op, k=want, which="LM", tol=1e-10, ncv=min(n - 1, max(2 * want + 1, 20)))
    except ArpackNoConvergence as exc:
        nu, vecs = exc.eigenvalues, exc.eigenvectors
    lam = sigma_shift + 1.0 / nu
    modes = []
    for i in np.argsort(lam.real):
        if lam[i].real <= 1e-6 * sigma_shift:  # remnants of the gradient kernel
            continue
        gf = ng.GridFunction(fes)
        full = np.zeros(fes.ndof, dtype=dtype)
        v = vecs[:, i]
        full[free_idx] = v if lossy else v.real
        gf.vec.FV().NumPy()[:] = full
        omega_over_c = np.sqrt(complex(lam[i]))
        f = float(C0 * omega_over_c.real / (2 * math.pi))
        q = float(omega_over_c.real / (2 * omega_over_c.imag)) if lossy and omega_over_c.imag > 0 else None
        modes.append(CavityMode(complex(lam[i]), f, q, gf, int(shifted.mat.nze)))
    modes = modes[:n_modes]
    if not iterative:
        info = {"eigen_solver": "shift-invert Arnoldi (ARPACK) with gradient projection"}
        return CavitySolution(modes, "direct", info)
    residuals = [_relative_residual(shifted.mat, m.mat, mode, sigma_shift) for mode in modes]
    info = {
        "eigen_solver": "shift-invert Arnoldi (ARPACK), inner GMRES + BDDC"
        + ("" if walls else ", gradient projection by CG + BDDC"),
        "eigen_shift_k_squared": sigma_shift,
        "eigen_operator_applications": applied[0],
        "eigen_residuals": [float(f"{r:.3e}") for r in residuals],
        "eigen_seconds": round(time.perf_counter() - started, 3),
        "non_zeros": int(shifted.mat.nze),  # symmetric storage: the lower triangle
        **solve.describe(),
    }
    if isinstance(project, GradientProjector):
        info.update(
            projection_solves=project.solves,
            projection_cg_iterations=project.cg_iterations,
            projection_worst_leak=float(f"{project.worst_residual:.3e}"),
        )
    bad = [(md, r) for md, r in zip(modes, residuals, strict=True) if not r <= RESIDUAL_LIMIT]
    if bad or not modes:
        found = ", ".join(
            f"{md.frequency:.6g} Hz (residual {r:.1e})" for md, r in zip(modes, residuals, strict=True)
        )
        raise EngineError(
            "eigen_no_convergence",
            f"Shift-and-invert Arnoldi with iterative inner solves returned {len(modes) - len(bad)} of "
            f"{len(modes)} cavity modes within a residual of {RESIDUAL_LIMIT:g}"
            f"{': ' + found if found else ''}. Refine the mesh, move the target frequency or use linearSolver "
            "'direct'.",
        )
    return CavitySolution(modes, "iterative", info)


def _relative_residual(shifted: ng.BaseMatrix, mass: ng.BaseMatrix, mode: CavityMode, sigma: float) -> float:
    """‖K x − λ M x‖ / (|λ| ‖M x‖) on the free DOFs, with K = (K − σM) + σM (walls included)."""
    x = mode.field.vec
    mx = x.CreateVector()
    r = x.CreateVector()
    free = ng.Projector(mode.field.space.FreeDofs(), True)
    with parallel(len(x)):
        mx.data = mass * x
        r.data = shifted * x + (sigma - mode.k_squared) * mx
        r.data = free * r
        mx.data = free * mx
    return ng.Norm(r) / (abs(mode.k_squared) * ng.Norm(mx))


def _iterative_modes(
    mesh: ng.Mesh,
    media: Media,
    fes: ng.FESpace,
    n_modes: int,
    target: float | None,
    progress: ProgressSpan,
) -> CavitySolution:
    """LOBPCG finds the lowest modes. The direct path returns the lowest n of the n + 2 modes nearest the
    target; with a target the n + 2 lowest are computed and accepted when no higher mode can be nearer the
    target than one of them (else a clear refusal), so both paths return the same modes."""
    box = _lowest_box_resonance(mesh, media)  # half the box's TE101: a k² below the lowest mode
    tau = (2 * math.pi * box / C0) ** 2
    targeted = target is not None and target > 0
    wanted = n_modes + 2 if targeted else n_modes
    result = lobpcg_cavity_modes(fes, media, wanted, tau, progress)
    k2 = result.k_squared
    if targeted:
        sigma = (2 * math.pi * target / C0) ** 2
        if float(np.max(np.abs(k2 - sigma))) > k2[-1] - sigma:
            raise InvalidInput(
                f"The iterative cavity-eigen solver finds the lowest modes; the {n_modes} modes nearest "
                f"{target / 1e9:.6g} GHz may include modes above the highest of the {len(k2)} it found "
                f"({C0 * math.sqrt(k2[-1]) / (2 * math.pi) / 1e9:.6g} GHz). Set frequency 0 (the lowest modes), "
                "ask for more modes or use linearSolver 'direct'."
            )
    modes = []
    for j in range(min(n_modes, len(k2))):
        gf = ng.GridFunction(fes)
        gf.vec.FV().NumPy()[:] = result.vectors[:, j]
        f = float(C0 * math.sqrt(max(k2[j], 0.0)) / (2 * math.pi))
        modes.append(CavityMode(complex(k2[j]), f, None, gf, result.info["non_zeros"]))
    result.info["eigen_residuals"] = result.info["eigen_residuals"][: len(modes)]
    return CavitySolution(modes, "iterative", result.info)


def _gradient_projector(fes: ng.FESpace, m_mat, eps: ng.CoefficientFunction, lossy: bool):
    """x ← x − G (GᵀMG)⁻¹ GᵀM x on the free DOFs (removes the discrete gradient part)."""
    grad = Gradient(fes)
    h1 = grad.h1
    u, v = h1.TnT()
    lap = ng.BilinearForm(h1)
    lap += (eps * ng.grad(u)) * ng.grad(v) * ng.dx
    with ng.TaskManager():
        lap.Assemble()
    free = ng.BitArray(h1.FreeDofs())
    if free.NumSet() == h1.ndof:  # no PEC: constants are in the kernel; pin one vertex (∇const = 0)
        free.Clear(0)
    lap_inv = lap.mat.Inverse(free, inverse="umfpack" if lossy else "sparsecholesky")
    mx = m_mat.CreateColVector()
    gt = lap.mat.CreateColVector()
    corr = lap.mat.CreateColVector()
    gx = m_mat.CreateColVector()

    def project(x) -> None:
        mx.data = m_mat * x
        grad.apply_transpose(mx, gt)
        corr.data = lap_inv * gt
        grad.apply(corr, gx)
        x.data -= gx

    return project


def _lowest_box_resonance(mesh: ng.Mesh, media: Media) -> float:
    """TE101 of the bounding box: a shift just below the lowest cavity mode of most shapes."""
    pts = np.array([p.point for p in mesh.vertices])
    dims = np.sort(np.ptp(pts, axis=0))[::-1]
    f = C0 / (2 * math.sqrt(media.max_eps_mu)) * math.hypot(1 / dims[0], 1 / dims[1])
    return 0.5 * f
