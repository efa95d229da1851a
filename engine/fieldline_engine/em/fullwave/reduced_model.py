"""Galerkin projection-based reduced-order model (PROM) of the full-wave operator.

The basis V holds the real and imaginary parts of full solutions (orthonormalised), so V is real and
the reduced matrices Vᵀ T V keep the complex symmetry of the full ones. Each affine term is projected
once per basis change; a frequency then costs one r×r solve (r = 2 × ports × samples).

The error indicator is the full residual of the reduced solution, ‖A(f)·V·y − g_p‖/‖g_p‖, over the free
dofs. A(f)·V·y_p − g_p = [T_1V … T_mV g_1 … g_P]·[φ_1(f)y_p … φ_m(f)y_p −e_p], so with the R factor of that block
(a thin QR, once per basis change) the residual norm at any frequency is ‖R·coefficients‖: exact
(Householder QR is backward stable, no normal equations) and independent of the problem size.
"""

import numpy as np

from fieldline_engine.em.fullwave.affine import AffineTerm

# Parts of a new vector smaller than this (relative, after orthogonalisation) are already in the basis.
_DEFLATION = 1e-10
# Rows per block of the projection (bounds its memory: rows × (terms × basis + ports) complex numbers).
_ROW_BLOCK = 50_000


class ReducedModel:
    def __init__(self, terms: list[AffineTerm], rhs: list[np.ndarray], free: np.ndarray):
        self.terms = terms
        self.rhs = [np.asarray(g) for g in rhs]  # g_p, one per port (full-length)
        self.free = free  # bool mask of the free dofs (the residual lives there)
        self.n = len(free)
        self.v = np.zeros((self.n, 0))
        self._reduced: list[np.ndarray] = []
        self._reduced_rhs = np.zeros((0, len(rhs)), dtype=complex)
        self._r_factor = np.zeros((0, 0), dtype=complex)
        self._rhs_norms = [float(np.linalg.norm(g[free])) or 1.0 for g in self.rhs]

    @property
    def size(self) -> int:
        return int(self.v.shape[1])

    def add(self, vectors: list[np.ndarray]) -> int:
        """Adds the real and imaginary parts of full solutions to the basis (classical Gram–Schmidt
        twice: one pass loses orthogonality when a new vector is nearly in the span). Returns how many
        columns were added."""
        added = 0
        for x in vectors:
            for part in (np.real(x), np.imag(x)):
                w = np.where(self.free, part, 0.0)
                size = np.linalg.norm(w)
                if size == 0:
                    continue
                for _ in range(2):
                    w = w - self.v @ (self.v.T @ w)
                norm = np.linalg.norm(w)
                if norm > _DEFLATION * size:
                    self.v = np.column_stack([self.v, w / norm])
                    added += 1
        if added:
            self._project()
        return added

    def _project(self) -> None:
        """Vᵀ T_t V, Vᵀ g_p and the R factor of [T_1V … T_mV g_1 … g_P] (free rows), a block of rows at a
        time: R of stacked blocks is the R of [R_previous; next block] (TSQR), so the n × (m·r + P) block
        never exists whole."""
        v = self.v
        r = v.shape[1]
        self._reduced = [np.zeros((r, r), dtype=complex) for _ in self.terms]
        self._reduced_rhs = np.column_stack([v.T @ g for g in self.rhs])
        rows_free = np.flatnonzero(self.free)
        r_factor = None
        for start in range(0, self.n, _ROW_BLOCK):
            rows = np.arange(start, min(start + _ROW_BLOCK, self.n))
            tv = [t.matrix[rows] @ v for t in self.terms]
            for red, x in zip(self._reduced, tv, strict=True):
                red += v[rows].T @ x
            keep = rows_free[(rows_free >= rows[0]) & (rows_free <= rows[-1])] - rows[0]
            block = np.column_stack([*(x[keep] for x in tv), *(g[rows][keep] for g in self.rhs)])
            stacked = block if r_factor is None else np.vstack([r_factor, block])
            r_factor = np.linalg.qr(stacked, mode="r")
        self._r_factor = r_factor

    def solve(self, frequency: float) -> np.ndarray:
        """Reduced coordinates y (r × P) with A_r(f)·y_p = Vᵀ g_p."""
        a = sum(t.factor(frequency) * m for t, m in zip(self.terms, self._reduced, strict=True))
        return np.linalg.solve(a, self._reduced_rhs)

    def residuals(self, frequency: float, y: np.ndarray) -> np.ndarray:
        """‖A(f)·V·y_p − g_p‖/‖g_p‖ per port p."""
        factors = [t.factor(frequency) for t in self.terms]
        ports = y.shape[1]
        out = np.empty(ports)
        for p in range(ports):
            coeffs = np.concatenate([*(phi * y[:, p] for phi in factors), -np.eye(ports)[p]])
            out[p] = np.linalg.norm(self._r_factor @ coeffs) / self._rhs_norms[p]
        return out

    def overlaps(self, y: np.ndarray) -> np.ndarray:
        """g_q·(V y_p) as a (P × P) array [q, p] (the bilinear pairing the S extraction uses)."""
        return np.column_stack([g @ self.v for g in self.rhs]).T @ y

    def expand(self, y_p: np.ndarray) -> np.ndarray:
        return self.v @ y_p
