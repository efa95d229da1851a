"""Time integrators for the semi-discrete wave equation M u'' + C u' + K u = f(t) (u: the HCurl E-field DOFs).

The state lives on the free DOFs only: the Dirichlet (PEC) ones are zero throughout, so the matrices are
their free blocks and no step gathers or scatters (on a small mesh a third or more of the DOFs are PEC).

Each scheme factorizes one constant SPD matrix before the first step ("factorize once, solve many")
and then costs one forward/back substitution and one or two sparse products per step:
- newmark:  average acceleration (β = 1/4, γ = 1/2), second order, unconditionally stable, no numerical
            damping; A = M + Δt/2·C + Δt²/4·K.
- explicit: central differences (leap-frog), second order, stable for Δt < 2/ω_max; B = M + Δt/2·C.
- implicit: BDF2 on the first-order form (u, v), second order, unconditionally stable and dissipative at
            high frequencies; D = 9/4·M + 3/2·Δt·C + Δt²·K. Its two-step history starts at rest (the
            field is zero before t = 0), so no first-order starting step is needed.
All three start from rest (u = u' = 0 at t = 0); the sources are built to be negligible there.
"""

from abc import ABC, abstractmethod
from collections.abc import Callable

import ngsolve as ng
import numpy as np
import scipy.sparse as sp

from fieldline_engine.core.sparse import CsrArrays, csr_arrays
from fieldline_engine.em.transient.factor import (
    StepFactor,
    cholmod_available,
    combine_on_pattern,
    free_blocks,
    use_block_factor,
)
from fieldline_engine.limits import parallel

try:  # scipy's own CSR kernel (what `a @ x` runs), called without scipy's Python dispatch
    from scipy.sparse._sparsetools import csr_matvec as _csr_matvec
except ImportError:  # pragma: no cover - a scipy without it: `a @ x`
    _csr_matvec = None

SCHEMES = ("newmark", "explicit", "implicit")
SCHEME_DESCRIPTIONS = {
    "newmark": "Newmark average acceleration (beta=1/4, gamma=1/2)",
    "explicit": "central differences (leap-frog)",
    "implicit": "BDF2 (second-order backward differentiation)",
}

Forcing = Callable[[float, np.ndarray], None]  # writes f(t) into a numpy array (free DOFs, columns)


def spmm(a: sp.csr_matrix | CsrArrays, x: np.ndarray) -> np.ndarray:
    """a @ x for a block x (n, k), column by column: scipy's multi-vector CSR kernel is several times
    slower per column than its single-vector one. One column (every run but the port-by-port S-matrix)
    goes straight to the kernel: the same operations as `a @ x`, without its dispatch, which at ~1k
    unknowns costs about as much as the product (coax wedge bench)."""
    if (
        _csr_matvec is not None
        and x.shape[1] == 1
        and x.dtype == a.dtype == np.float64
        and x.flags.c_contiguous
    ):
        out = np.zeros((a.shape[0], 1))
        _csr_matvec(a.shape[0], a.shape[1], a.indptr, a.indices, a.data, x.reshape(-1), out.reshape(-1))
        return out
    out = np.empty((a.shape[0], x.shape[1]))
    for j in range(x.shape[1]):
        out[:, j] = a @ x[:, j]
    return out


def subtract_product(a: CsrArrays, negated: CsrArrays | None, x: np.ndarray, out: np.ndarray) -> None:
    """out -= a @ x, in place: with one float column, SciPy's kernel adds `negated`'s product (a's data
    negated, the same numbers bit for bit) straight into `out`, with no temporary; else through spmm."""
    if (
        negated is not None
        and _csr_matvec is not None
        and x.shape[1] == 1
        and x.flags.c_contiguous
        and out.flags.c_contiguous
        and x.dtype == out.dtype == negated.dtype == np.float64
    ):
        _csr_matvec(
            *negated.shape, negated.indptr, negated.indices, negated.data, x.reshape(-1), out.reshape(-1)
        )
        return
    out -= spmm(a, x)


class SecondOrderSystem:
    """The matrices of M u'' + C u' + K u = f and the symbolic terms to combine them into one matrix."""

    def __init__(self, fes: ng.FESpace, m_term, k_term, c_term, inverse: str = "sparsecholesky"):
        self.fes = fes
        self.m_term, self.k_term, self.c_term = m_term, k_term, c_term
        self.inverse = inverse
        self.M = self._assemble(m_term)
        self.K = self._assemble(k_term)
        self.C = self._assemble(c_term) if c_term is not None else None
        self.freedofs = fes.FreeDofs()
        self.free = np.flatnonzero(np.fromiter(self.freedofs, dtype=bool, count=len(self.freedofs)))
        # Their free blocks in CSR: the schemes step numpy blocks (free DOFs, columns), one column per
        # excitation, so several excitations share each sparse product and each substitution.
        blocks = free_blocks([csr_arrays(a) for a in (self.M, self.K, self.C) if a is not None], self.free)
        self.M_csr, self.K_csr = blocks[0], blocks[1]
        self.C_csr = blocks[2] if self.C is not None else None
        # −K and −C: a step subtracts their products in place (subtract_product)
        self.K_neg = self.K_csr.negated()
        self.C_neg = self.C_csr.negated() if self.C_csr is not None else None
        # Factorizations by (m, c, k, block): a second run with the same Δt (another port driven) reuses them.
        self._inverses: dict[tuple[float, float, float, bool], StepFactor] = {}

    def _assemble(self, *weighted_terms) -> ng.BaseMatrix:
        form = ng.BilinearForm(self.fes)
        for term in weighted_terms:
            form += term
        # threads only for large systems: on a small mesh starting NGSolve's spinning workers costs
        # ~10× the assembly (sphere bench, 3k unknowns: 0.08–0.13 vs 0.008 CPU s a matrix)
        with parallel(self.fes.ndof):
            form.Assemble()
        return form.mat

    def combined_inverse(self, m: float, c: float, k: float, block: bool = False) -> StepFactor:
        """(m·M + c·C + k·K)⁻¹ on the free DOFs (every combination here is symmetric positive definite),
        factorized once per combination; `block`: for several right-hand sides at once (factor.py)."""
        if self.c_term is None:
            c = 0.0  # no damping: the stability limit's M⁻¹ and the explicit step's share one factor
        key = (m, c, k, block)
        if key not in self._inverses:
            self._inverses[key] = self._factorize(m, c, k, block)
        return self._inverses[key]

    @property
    def factorizations(self) -> int:
        return len(self._inverses)

    def _factorize(self, m: float, c: float, k: float, block: bool) -> StepFactor:
        if block and cholmod_available():
            # CHOLMOD takes CSR: combine the matrices already assembled (same numbers to rounding)
            # instead of assembling the sum again, which costs as much as M and K together.
            terms = [(m, self.M_csr), (k, self.K_csr)]
            if self.C_csr is not None and c != 0:
                terms.append((c, self.C_csr))
            return StepFactor.from_free_csr(combine_on_pattern(terms), self.freedofs)
        terms = [m * self.m_term]
        if self.c_term is not None and c != 0:
            terms.append(c * self.c_term)
        if k != 0:
            terms.append(k * self.k_term)
        mat = self._assemble(*terms)
        return StepFactor(mat, self.freedofs, block, self.inverse)


class Scheme(ABC):
    """State: u (E), v (∂E/∂t) as numpy arrays (free DOFs, columns), one column per excitation (they
    share the factor); `step()` advances every column by one Δt, updating the arrays in place."""

    name: str

    def __init__(
        self,
        system: SecondOrderSystem,
        dt: float,
        forcing: Forcing,
        columns: int = 1,
        steps: int | None = None,
    ):
        self.sys, self.dt, self.forcing = system, dt, forcing
        self.n = 0
        # which factor the run steps on: factor.use_block_factor (the numbers agree to rounding)
        self.block = use_block_factor(system.freedofs.NumSet(), columns, steps)
        shape = (len(system.free), columns)
        self.u = np.zeros(shape)
        self.v = np.zeros(shape)
        self._rhs = np.zeros(shape)
        self._tmp = np.zeros(shape)

    @property
    def time(self) -> float:
        return self.n * self.dt

    def _force(self, t: float) -> np.ndarray:
        self.forcing(t, self._rhs)
        return self._rhs

    def _apply_c(self, x: np.ndarray, scale: float, out: np.ndarray) -> None:
        """out -= scale·C x (no-op without damping)."""
        if self.sys.C_csr is not None:
            out -= scale * spmm(self.sys.C_csr, x)

    @abstractmethod
    def step(self) -> None: ...


class Newmark(Scheme):
    name = "newmark"

    def __init__(
        self,
        system: SecondOrderSystem,
        dt: float,
        forcing: Forcing,
        columns: int = 1,
        steps: int | None = None,
    ):
        super().__init__(system, dt, forcing, columns, steps)
        self.inv = system.combined_inverse(1.0, dt / 2, dt * dt / 4, self.block)
        self.a = np.zeros_like(self.u)
        self._upred = np.zeros_like(self.u)
        self._vpred = np.zeros_like(self.u)

    def step(self) -> None:
        dt = self.dt
        np.multiply(self.a, dt * dt / 4, out=self._upred)
        np.multiply(self.v, dt, out=self._tmp)
        self._upred += self._tmp
        self._upred += self.u
        np.multiply(self.a, dt / 2, out=self._vpred)
        self._vpred += self.v
        rhs = self._force((self.n + 1) * dt)
        subtract_product(self.sys.K_csr, self.sys.K_neg, self._upred, rhs)
        if self.sys.C_csr is not None:
            subtract_product(self.sys.C_csr, self.sys.C_neg, self._vpred, rhs)
        self.inv.solve_free_into(rhs, self.a)
        np.multiply(self.a, dt * dt / 4, out=self.u)
        self.u += self._upred
        np.multiply(self.a, dt / 2, out=self.v)
        self.v += self._vpred
        self.n += 1


class CentralDifference(Scheme):
    """B δ = Δt²(f_n − K u_n) − Δt·C(u_n − u_{n−1}), δ = u_{n+1} − 2u_n + u_{n−1} (centred damping)."""

    name = "explicit"

    def __init__(
        self,
        system: SecondOrderSystem,
        dt: float,
        forcing: Forcing,
        columns: int = 1,
        steps: int | None = None,
    ):
        super().__init__(system, dt, forcing, columns, steps)
        self.inv = system.combined_inverse(1.0, dt / 2, 0.0, self.block)
        self.u_prev = np.zeros_like(self.u)
        self._delta = np.zeros_like(self.u)
        self._u_next = np.zeros_like(self.u)

    def step(self) -> None:
        dt = self.dt
        rhs = self._force(self.n * dt)
        rhs -= spmm(self.sys.K_csr, self.u)
        rhs *= dt * dt
        if self.sys.C_csr is not None:
            np.subtract(self.u, self.u_prev, out=self._delta)
            self._apply_c(self._delta, dt, rhs)
        self.inv.solve_free_into(rhs, self._delta)
        np.multiply(self.u, 2.0, out=self._u_next)
        self._u_next -= self.u_prev
        self._u_next += self._delta
        # v_n = (u_{n+1} − u_{n−1})/2Δt is centred on the old step; report it with the new state as a
        # second-order estimate of u' at t_{n+1}: (3u_{n+1} − 4u_n + u_{n−1})/2Δt.
        self.v[...] = (1.5 / dt) * self._u_next - (2.0 / dt) * self.u + (0.5 / dt) * self.u_prev
        self.u_prev[...] = self.u
        self.u[...] = self._u_next
        self.n += 1


class Bdf2(Scheme):
    """D u_{n+1} = Δt²f_{n+1} + M[Δt/2·(4v_n − v_{n−1}) + 3/4·(4u_n − u_{n−1})] + C·Δt/2·(4u_n − u_{n−1}),
    with D = 9/4·M + 3/2·Δt·C + Δt²K, then v_{n+1} = (3u_{n+1} − 4u_n + u_{n−1})/2Δt."""

    name = "implicit"

    def __init__(
        self,
        system: SecondOrderSystem,
        dt: float,
        forcing: Forcing,
        columns: int = 1,
        steps: int | None = None,
    ):
        super().__init__(system, dt, forcing, columns, steps)
        self.inv = system.combined_inverse(2.25, 1.5 * dt, dt * dt, self.block)
        self.u_prev = np.zeros_like(self.u)
        self.v_prev = np.zeros_like(self.u)
        self._hist_u = np.zeros_like(self.u)
        self._acc = np.zeros_like(self.u)

    def step(self) -> None:
        dt = self.dt
        rhs = self._force((self.n + 1) * dt)
        rhs *= dt * dt
        self._hist_u[...] = 4 * self.u - self.u_prev
        self._acc[...] = (dt / 2) * (4 * self.v - self.v_prev) + 0.75 * self._hist_u
        rhs += spmm(self.sys.M_csr, self._acc)
        if self.sys.C_csr is not None:
            rhs += (dt / 2) * spmm(self.sys.C_csr, self._hist_u)
        self.u_prev[...] = self.u
        self.v_prev[...] = self.v
        self.inv.solve_free_into(rhs, self.u)
        self.v[...] = (1.5 / dt) * self.u - (0.5 / dt) * self._hist_u
        self.n += 1


def make_scheme(
    name: str,
    system: SecondOrderSystem,
    dt: float,
    forcing: Forcing,
    columns: int = 1,
    steps: int | None = None,
) -> Scheme:
    """`columns`: excitations stepped together; `steps`: the run's length (both choose the factor)."""
    schemes = {"newmark": Newmark, "explicit": CentralDifference, "implicit": Bdf2}
    return schemes[name](system, dt, forcing, columns, steps)
