"""Cavity eigenmodes: K e = k² M e in HCurl with PEC walls, by shift-and-invert Arnoldi.

The curl-curl operator has a huge kernel (all discrete gradients, k² = 0). Every Arnoldi vector is
projected onto the discretely divergence-free space, P = I − G (GᵀMG)⁻¹ GᵀM with G the gradient
matrix of the matching H1 space, so no spurious zero modes can appear whatever the shift.
With impedance walls the projection is skipped (see below) and the shift must be near the wanted modes.
Loss (σ, tanδ) and impedance walls make the problem complex; their frequency dependence is frozen at
the shift frequency (exact for tanδ, first order for σ and Leontovich walls: fine for high-Q modes).
Q = Re ω / (2 Im ω) for e^{+jωt}.
"""

import math
from dataclasses import dataclass

import ngsolve as ng
import numpy as np
from scipy.sparse.linalg import ArpackNoConvergence, LinearOperator, eigs

from fieldline_engine.em.constants import C0, ETA0
from fieldline_engine.em.fullwave.media import Media
from fieldline_engine.em.fullwave.solver import MAX_DIRECT_DOFS, ImpedanceWall
from fieldline_engine.errors import EngineError


@dataclass
class CavityMode:
    k_squared: complex  # rad²/m²
    frequency: float  # Hz
    q_factor: float | None  # None for a lossless cavity
    field: ng.GridFunction
    matrix_nze: int = 0  # non-zeros of the shifted system (solver_info)


def cavity_modes(
    mesh: ng.Mesh,
    media: Media,
    order: int,
    pec: str,
    n_modes: int = 6,
    shift_frequency: float | None = None,
    walls: list[ImpedanceWall] | None = None,
    inverse: str = "umfpack",
) -> list[CavityMode]:
    walls = walls or []
    lossy = media.lossy or bool(walls)
    fes = (
        ng.HCurl(mesh, order=order, complex=lossy, dirichlet=pec)
        if pec
        else ng.HCurl(mesh, order=order, complex=lossy)
    )
    if fes.ndof > MAX_DIRECT_DOFS:
        raise EngineError("too_large", f"The eigenproblem has {fes.ndof} unknowns (limit {MAX_DIRECT_DOFS}).")
    if shift_frequency is None or shift_frequency <= 0:
        # Without the gradient projection (impedance walls) the shift itself must keep the gradient
        # cluster at k² ≈ 0 away, so aim at the estimate instead of below it.
        shift_frequency = _lowest_box_resonance(mesh, media) * (1.0 if walls else 0.5)
    k_shift = 2 * math.pi * shift_frequency / C0
    sigma_shift = k_shift**2

    E, W = fes.TnT()
    k = ng.BilinearForm(fes)
    k += (media.inv_mu_r * ng.curl(E)) * ng.curl(W) * ng.dx
    for wall in walls:
        k += (
            (1j * k_shift * ETA0 / complex(wall.impedance(shift_frequency)))
            * E.Trace()
            * W.Trace()
            * ng.ds(wall.label)
        )
    m = ng.BilinearForm(fes)
    eps = media.eps_r
    if media.lossy:  # εc = εr − jσ/(ωε0) frozen at the shift: −k²εc = −k²εr + j k η0 σ
        eps = eps - 1j * ETA0 / k_shift * media.sigma
    m += (eps * E) * W * ng.dx
    shifted = ng.BilinearForm(fes)
    shifted += (media.inv_mu_r * ng.curl(E)) * ng.curl(W) * ng.dx - sigma_shift * (eps * E) * W * ng.dx
    for wall in walls:
        shifted += (
            (1j * k_shift * ETA0 / complex(wall.impedance(shift_frequency)))
            * E.Trace()
            * W.Trace()
            * ng.ds(wall.label)
        )
    with ng.TaskManager():
        k.Assemble()
        m.Assemble()
        shifted.Assemble()
    free = fes.FreeDofs()
    inv = shifted.mat.Inverse(free, inverse=inverse)
    # Impedance walls make gradients non-orthogonal to the physical modes (boundary term), so the
    # projection would cut into them; there the shift alone keeps the near-zero cluster out of reach.
    project = _gradient_projector(fes, m.mat, eps, lossy) if not walls else (lambda _x: None)

    free_idx = np.nonzero(np.array(free, dtype=bool))[0]
    n = len(free_idx)
    dtype = complex if lossy else float
    x_vec = m.mat.CreateColVector()
    y_vec = m.mat.CreateColVector()

    def apply(x: np.ndarray) -> np.ndarray:
        full = np.zeros(fes.ndof, dtype=dtype)
        full[free_idx] = x
        x_vec.FV().NumPy()[:] = full
        project(x_vec)
        y_vec.data = m.mat * x_vec
        x_vec.data = inv * y_vec
        project(x_vec)
        return x_vec.FV().NumPy()[free_idx].copy()

    op = LinearOperator((n, n), matvec=apply, dtype=complex if lossy else float)
    want = min(n_modes + 2, n - 2)
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
    return modes[:n_modes]


def _gradient_projector(fes: ng.FESpace, m_mat, eps: ng.CoefficientFunction, lossy: bool):
    """x ← x − G (GᵀMG)⁻¹ GᵀM x on the free DOFs (removes the discrete gradient part)."""
    grad, h1 = fes.CreateGradient()
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
        gt.data = grad.T * mx
        corr.data = lap_inv * gt
        gx.data = grad * corr
        x.data -= gx

    return project


def _lowest_box_resonance(mesh: ng.Mesh, media: Media) -> float:
    """TE101 of the bounding box: a shift just below the lowest cavity mode of most shapes."""
    pts = np.array([p.point for p in mesh.vertices])
    dims = np.sort(np.ptp(pts, axis=0))[::-1]
    f = C0 / (2 * math.sqrt(media.max_eps_mu)) * math.hypot(1 / dims[0], 1 / dims[1])
    return 0.5 * f
