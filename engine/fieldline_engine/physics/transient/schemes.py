"""Time integrators for the semi-discrete wave equation M u'' + C u' + K u = f(t) (u: the HCurl E-field DOFs).

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

from fieldline_engine.physics.transient.factor import StepFactor

SCHEMES = ("newmark", "explicit", "implicit")
SCHEME_DESCRIPTIONS = {
    "newmark": "Newmark average acceleration (beta=1/4, gamma=1/2)",
    "explicit": "central differences (leap-frog)",
    "implicit": "BDF2 (second-order backward differentiation)",
}

Forcing = Callable[[float, np.ndarray], None]  # writes f(t) into a numpy array of length ndof


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
        # Factorizations by (m, c, k): a second run with the same Δt (another port driven) reuses them.
        self._inverses: dict[tuple[float, float, float], StepFactor] = {}

    def _assemble(self, *weighted_terms) -> ng.BaseMatrix:
        form = ng.BilinearForm(self.fes)
        for term in weighted_terms:
            form += term
        with ng.TaskManager():
            form.Assemble()
        return form.mat

    def combined_inverse(self, m: float, c: float, k: float) -> StepFactor:
        """(m·M + c·C + k·K)⁻¹ on the free DOFs (every combination here is symmetric positive definite),
        factorized once per combination."""
        key = (m, c, k)
        if key not in self._inverses:
            self._inverses[key] = self._factorize(m, c, k)
        return self._inverses[key]

    @property
    def factorizations(self) -> int:
        return len(self._inverses)

    def _factorize(self, m: float, c: float, k: float) -> StepFactor:
        terms = [m * self.m_term]
        if self.c_term is not None and c != 0:
            terms.append(c * self.c_term)
        if k != 0:
            terms.append(k * self.k_term)
        mat = self._assemble(*terms)
        return StepFactor(mat, self.freedofs, self.inverse)


class Scheme(ABC):
    """State: u (E), v (∂E/∂t) as NGSolve vectors; `step()` advances one Δt."""

    name: str

    def __init__(self, system: SecondOrderSystem, dt: float, forcing: Forcing):
        self.sys, self.dt, self.forcing = system, dt, forcing
        self.n = 0
        self.u = system.M.CreateColVector()
        self.v = system.M.CreateColVector()
        self.u[:] = 0.0
        self.v[:] = 0.0
        self._f = np.zeros(system.fes.ndof)
        self._rhs = system.M.CreateColVector()
        self._tmp = system.M.CreateColVector()

    @property
    def time(self) -> float:
        return self.n * self.dt

    def _force(self, t: float) -> ng.BaseVector:
        self.forcing(t, self._f)
        self._rhs.FV().NumPy()[:] = self._f
        return self._rhs

    def _apply_c(self, x: ng.BaseVector, scale: float, out: ng.BaseVector) -> None:
        """out -= scale·C x (no-op without damping)."""
        if self.sys.C is not None:
            self._tmp.data = self.sys.C * x
            out.data -= scale * self._tmp

    @abstractmethod
    def step(self) -> None: ...


class Newmark(Scheme):
    name = "newmark"

    def __init__(self, system: SecondOrderSystem, dt: float, forcing: Forcing):
        super().__init__(system, dt, forcing)
        self.inv = system.combined_inverse(1.0, dt / 2, dt * dt / 4)
        self.a = system.M.CreateColVector()
        self.a[:] = 0.0
        self._upred = system.M.CreateColVector()
        self._vpred = system.M.CreateColVector()

    def step(self) -> None:
        dt = self.dt
        self._upred.data = self.u + dt * self.v + (dt * dt / 4) * self.a
        self._vpred.data = self.v + (dt / 2) * self.a
        rhs = self._force((self.n + 1) * dt)
        self._tmp.data = self.sys.K * self._upred
        rhs.data -= self._tmp
        self._apply_c(self._vpred, 1.0, rhs)
        self.inv.solve_into(rhs.FV().NumPy(), self.a.FV().NumPy())
        self.u.data = self._upred + (dt * dt / 4) * self.a
        self.v.data = self._vpred + (dt / 2) * self.a
        self.n += 1


class CentralDifference(Scheme):
    """B δ = Δt²(f_n − K u_n) − Δt·C(u_n − u_{n−1}), δ = u_{n+1} − 2u_n + u_{n−1} (centred damping)."""

    name = "explicit"

    def __init__(self, system: SecondOrderSystem, dt: float, forcing: Forcing):
        super().__init__(system, dt, forcing)
        self.inv = system.combined_inverse(1.0, dt / 2, 0.0)
        self.u_prev = system.M.CreateColVector()
        self.u_prev[:] = 0.0
        self._delta = system.M.CreateColVector()
        self._u_next = system.M.CreateColVector()

    def step(self) -> None:
        dt = self.dt
        rhs = self._force(self.n * dt)
        self._tmp.data = self.sys.K * self.u
        rhs.data -= self._tmp
        rhs.data *= dt * dt
        if self.sys.C is not None:
            self._delta.data = self.u - self.u_prev
            self._apply_c(self._delta, dt, rhs)
        self.inv.solve_into(rhs.FV().NumPy(), self._delta.FV().NumPy())
        self._u_next.data = 2 * self.u - self.u_prev + self._delta
        # v_n = (u_{n+1} − u_{n−1})/2Δt is centred on the old step; report it with the new state as a
        # second-order estimate of u' at t_{n+1}: (3u_{n+1} − 4u_n + u_{n−1})/2Δt.
        self.v.data = (1.5 / dt) * self._u_next - (2.0 / dt) * self.u + (0.5 / dt) * self.u_prev
        self.u_prev.data = self.u
        self.u.data = self._u_next
        self.n += 1


class Bdf2(Scheme):
    """D u_{n+1} = Δt²f_{n+1} + M[Δt/2·(4v_n − v_{n−1}) + 3/4·(4u_n − u_{n−1})] + C·Δt/2·(4u_n − u_{n−1}),
    with D = 9/4·M + 3/2·Δt·C + Δt²K, then v_{n+1} = (3u_{n+1} − 4u_n + u_{n−1})/2Δt."""

    name = "implicit"

    def __init__(self, system: SecondOrderSystem, dt: float, forcing: Forcing):
        super().__init__(system, dt, forcing)
        self.inv = system.combined_inverse(2.25, 1.5 * dt, dt * dt)
        self.u_prev = system.M.CreateColVector()
        self.v_prev = system.M.CreateColVector()
        self.u_prev[:] = 0.0
        self.v_prev[:] = 0.0
        self._hist_u = system.M.CreateColVector()
        self._acc = system.M.CreateColVector()

    def step(self) -> None:
        dt = self.dt
        rhs = self._force((self.n + 1) * dt)
        rhs.data *= dt * dt
        self._hist_u.data = 4 * self.u - self.u_prev
        self._acc.data = (dt / 2) * (4 * self.v - self.v_prev) + 0.75 * self._hist_u
        self._tmp.data = self.sys.M * self._acc
        rhs.data += self._tmp
        if self.sys.C is not None:
            self._tmp.data = self.sys.C * self._hist_u
            rhs.data += (dt / 2) * self._tmp
        self.u_prev.data = self.u
        self.v_prev.data = self.v
        self.inv.solve_into(rhs.FV().NumPy(), self.u.FV().NumPy())
        self.v.data = (1.5 / dt) * self.u - (0.5 / dt) * self._hist_u
        self.n += 1


def make_scheme(name: str, system: SecondOrderSystem, dt: float, forcing: Forcing) -> Scheme:
    return {"newmark": Newmark, "explicit": CentralDifference, "implicit": Bdf2}[name](system, dt, forcing)
