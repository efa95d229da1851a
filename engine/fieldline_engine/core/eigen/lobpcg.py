"""Block LOBPCG (Knyazev) for the lowest eigenpairs of K x = λ M x with a preconditioner T ≈ K⁻¹, for models too
large to factor: only mat-vecs with K and M and applications of T (BDDC), so memory stays linear in the DOFs.

Each iteration does a Rayleigh–Ritz step on the M-orthonormal basis [X, W, P] (X the current vectors, W = T R
the preconditioned residuals of the columns not yet converged, P the previous search directions). W and P
are M-orthonormalised against X and themselves by eigen-decomposing their Gram matrix (SVQB), which keeps
the small problem well conditioned as the residuals shrink; KX, MX, KP, MP are updated by the same linear
combinations, so one K and one M product per active column per iteration.
"""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla

# Every this many iterations KX and MX are recomputed from X.
REFRESH = 10

Block = Callable[[np.ndarray], np.ndarray]  # (n, k) → (n, k)


@dataclass
class LobpcgResult:
    values: np.ndarray  # (m,) ascending
    vectors: np.ndarray  # (n, m) M-orthonormal
    residuals: np.ndarray  # (m,) ‖Kx − λMx‖ / (‖Mx‖ · max |λ| of the wanted)
    iterations: int
    converged: int  # how many of the lowest `wanted` columns reached the tolerance (counted from the lowest)


def _svqb(blocks: tuple[np.ndarray, ...], drop: float = 1e-10, floor: float = 0.0) -> tuple[np.ndarray, ...]:
    """(Y, MY, …) made M-orthonormal (the Gram matrix Yᵀ M Y eigen-decomposed); directions with a Gram eigenvalue
    below drop × the largest, or below `floor`, are dropped. Every block of the tuple gets the same
    coefficients."""
    y, my = blocks[0], blocks[1]
    gram = y.T @ my
    d, v = np.linalg.eigh((gram + gram.T) / 2)
    keep = (d > drop * max(float(d[-1]), 1e-300)) & (d > floor) if len(d) else d > 0
    scale = v[:, keep] / np.sqrt(d[keep])
    return tuple(b @ scale for b in blocks)


def _project_out(
    blocks: tuple[np.ndarray, ...], basis: list[tuple[np.ndarray, ...]]
) -> tuple[np.ndarray, ...]:
    """Removes from (Y, MY, …) the M-components along each M-orthonormal (Q, MQ, …) of `basis`, twice: one
    Gram–Schmidt pass loses orthogonality once the residuals are small."""
    out = list(blocks)
    for _ in range(2):
        for q in basis:
            c = q[1].T @ out[0]
            out = [b - qb @ c for b, qb in zip(out, q, strict=False)]
    return tuple(out)


def lobpcg(
    stiffness: Block,
    mass: Block,
    precondition: Block,
    n: int,
    block: int,
    wanted: int,
    tolerance: float,
    max_iterations: int,
    on_iteration: Callable[[int, int], None] | None = None,
    seed: int = 1,
) -> LobpcgResult:
    rng = np.random.default_rng(seed)
    x = precondition(rng.standard_normal((n, block)))
    x, mx = _svqb((x, mass(x)))
    kx = stiffness(x)
    small = x.T @ kx
    lam, c = np.linalg.eigh((small + small.T) / 2)
    x, kx, mx = x @ c, kx @ c, mx @ c
    p = kp = mp = None
    residuals = np.full(block, np.inf)
    iterations = 0
    for iterations in range(1, max_iterations + 1):
        if iterations % REFRESH == 0:
            kx, mx = stiffness(x), mass(x)  # the updates by linear combinations drift from K X, M X
        r = kx - mx * lam
        scale = max(float(np.max(np.abs(lam[:wanted]))), 1e-300)  # the wanted modes' scale, as reported
        residuals = np.linalg.norm(r, axis=0) / (np.linalg.norm(mx, axis=0) * scale)
        converged = int(np.argmin(np.append(residuals[:wanted] <= tolerance, False)))
        if on_iteration:
            on_iteration(iterations, converged)
        if converged >= wanted:
            break
        active = residuals > tolerance
        w = precondition(r[:, active])
        del r
        w, mw = _svqb(_project_out((w, mass(w)), [(x, mx)]))
        parts = [(x, mx, kx), (w, mw, stiffness(w))]
        if p is not None:
            # P, MP, KP move together: projected and orthonormalised by the same coefficients. P's columns have
            # M-norm ≤ 1, so what the projection leaves is also judged against 1 (`floor`): when the last
            # Rayleigh–Ritz kept the whole basis, P lies in the new X and only round-off remains, which the
            # relative test alone would normalise up into garbage directions.
            p_part = _svqb(_project_out((p[:, active], mp[:, active], kp[:, active]), parts), floor=1e-24)
            if p_part[0].shape[1]:
                parts.append(p_part)
        del w, mw, p, kp, mp
        # Rayleigh–Ritz on the M-orthonormal basis [X, W, P], block by block: no stacked copy of the basis
        # (three n × 3·block arrays, the largest share of this path's memory otherwise).
        small = np.block([[a[0].T @ b[2] for b in parts] for a in parts])
        lam_all, c_all = sla.eigh((small + small.T) / 2)
        lam, c = lam_all[:block], c_all[:, :block]
        edges = np.cumsum([0] + [part[0].shape[1] for part in parts])
        # The next search directions: the new X's components outside the old X.
        p, mp, kp = (
            sum(part[i] @ c[lo:hi] for part, lo, hi in zip(parts[1:], edges[1:-1], edges[2:], strict=True))
            for i in range(3)
        )
        c_x = c[: edges[1]]
        x, mx, kx = x @ c_x + p, mx @ c_x + mp, kx @ c_x + kp
        del parts
    return LobpcgResult(lam, x, residuals, iterations, converged)
