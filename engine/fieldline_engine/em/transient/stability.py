"""The explicit scheme's stable time step from the largest generalized eigenvalue of K against M.

Central differences are stable for Δt < 2/ω_max, ω_max² = λ_max(K u = λ M u) (damping C ≥ 0, centred,
does not lower the limit). λ_max comes from Lanczos iterations (ARPACK, scipy's eigsh in regular
generalized mode) on the free DOFs, with M⁻¹ applied by a sparse Cholesky factorization of M (the one
an undamped explicit run then steps on). Lanczos converges fastest at the ends of the spectrum, so a few dozen iterations give λ_max to ~1e-10.
"""

import math
from dataclasses import dataclass

import numpy as np

from fieldline_engine.em.transient.factor import CHOLMOD_MIN_STEPS, use_block_factor
from fieldline_engine.em.transient.schemes import SecondOrderSystem


@dataclass
class StabilityLimit:
    lambda_max: float  # largest eigenvalue of M⁻¹K, (rad/s)²
    omega_max: float  # rad/s
    critical_time_step: float  # 2/ω_max in s
    iterations: int

    def describe(self) -> dict[str, float | int]:
        return {
            "largest_eigenvalue": self.lambda_max,
            "omega_max_rad_per_s": self.omega_max,
            "critical_time_step_s": self.critical_time_step,
            "lanczos_matvecs": self.iterations,
        }


def explicit_stability_limit(system: SecondOrderSystem, tol: float = 1e-10, seed: int = 7) -> StabilityLimit:
    free = np.fromiter(system.freedofs, dtype=bool, count=len(system.freedofs))
    idx = np.nonzero(free)[0]
    n = len(idx)
    # the factor the explicit run will step on (undamped: the same M), so it is factorized once
    # imported here: only explicit runs need ARPACK (scipy.sparse.linalg costs ~0.1–0.2 CPU s to import)
    from scipy.sparse.linalg import LinearOperator, eigsh

    m_inv = system.combined_inverse(1.0, 0.0, 0.0, use_block_factor(n, 1, CHOLMOD_MIN_STEPS))
    x = system.M.CreateColVector()
    y = system.M.CreateColVector()
    counter = {"k": 0}

    def apply(mat, v: np.ndarray) -> np.ndarray:
        xv = x.FV().NumPy()
        xv[:] = 0.0
        xv[idx] = np.ravel(v)
        y.data = mat * x
        return y.FV().NumPy()[idx].copy()

    def k_op(v: np.ndarray) -> np.ndarray:
        counter["k"] += 1
        return apply(system.K, v)

    ops = {
        "A": LinearOperator((n, n), matvec=k_op, dtype=np.float64),
        "M": LinearOperator((n, n), matvec=lambda v: apply(system.M, v), dtype=np.float64),
        "Minv": LinearOperator((n, n), matvec=lambda v: m_inv.solve_free(np.ravel(v)), dtype=np.float64),
    }
    v0 = np.random.default_rng(seed).standard_normal(n)
    lam = eigsh(
        ops["A"], k=1, M=ops["M"], Minv=ops["Minv"], which="LA", tol=tol, v0=v0, return_eigenvectors=False
    )
    lam_max = float(np.max(lam))
    omega = math.sqrt(lam_max)
    return StabilityLimit(lam_max, omega, 2.0 / omega, counter["k"])
