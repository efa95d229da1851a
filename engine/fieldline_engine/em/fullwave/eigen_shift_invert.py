"""The inner solve of shift-and-invert Arnoldi for cavities too large to factor: (K − σM)⁻¹ by GMRES + BDDC.

Lossy cavities (σ, tanδ, impedance walls) give a complex symmetric pencil, which LOBPCG (eigen_iterative.py)
cannot take. eigen.py then runs the same ARPACK shift-and-invert iteration as its direct path, on the same
pencil and shift, with every application of (K − σM)⁻¹ a GMRES solve preconditioned by NGSolve's BDDC built on
K − σM itself (element interiors local, the lowest-order Nédélec wirebasket factorized, so the coarse solve
carries the indefinite gradient part −σM; the full-wave path found this 5× faster than BDDC on the real SPD
auxiliary operator). The shift sits below the lowest mode (half the bounding box's TE101) unless a target
frequency is given, so K − σM is far from singular on the modes ARPACK converges to.

Arnoldi with inexact solves finds eigenpairs of the operator it is given, so each solve iterates to
INNER_TOLERANCE, well below ARPACK's 1e-10; every returned pair's true residual ‖K x − λ M x‖ / (|λ| ‖M x‖) is
then checked against RESIDUAL_LIMIT: an eigenvalue off by less than about that residual.
Memory is linear in the unknowns: the shifted and mass matrices, BDDC, GMRES's restarted Krylov basis and
ARPACK's ≈ 20 complex vectors.
"""

import time

import ngsolve as ng

from fieldline_engine.errors import EngineError
from fieldline_engine.limits import parallel

INNER_TOLERANCE = 1e-11
INNER_MAX_ITERATIONS = 1000
RESTART = 80
# A returned mode whose relative residual exceeds this is a failure, not an answer: measured 1e-13 … 4e-9 on
# the small test cavities (the residual grows with ‖K‖, i.e. with refinement, at the same eigenvalue accuracy).
RESIDUAL_LIMIT = 1e-6


class ShiftedSolve:
    """x = (K − σM)⁻¹ y by GMRES + BDDC. `preconditioner` must be registered on `shifted` before assembly."""

    def __init__(self, shifted: ng.BilinearForm, preconditioner: ng.Preconditioner):
        self.mat = shifted.mat
        self.pre = preconditioner.mat
        self.ndof = shifted.space.ndof
        self.solves = 0
        self.iterations = 0
        self.worst_iterations = 0
        self.seconds = 0.0

    def __call__(self, rhs: ng.BaseVector, sol: ng.BaseVector) -> None:
        started = time.perf_counter()
        steps = [0]

        def count(_iteration: int, _residual: float) -> None:  # GMRESSolver counts one restart cycle only
            steps[0] += 1

        gmres = ng.solvers.GMRESSolver(
            mat=self.mat,
            pre=self.pre,
            tol=INNER_TOLERANCE,
            maxiter=INNER_MAX_ITERATIONS,
            restart=RESTART,
            printrates=False,
            callback=count,
        )
        sol[:] = 0.0
        with parallel(self.ndof):
            gmres.Solve(rhs=rhs, sol=sol, initialize=True)
        self.solves += 1
        self.iterations += steps[0]
        self.worst_iterations = max(self.worst_iterations, steps[0])
        self.seconds += time.perf_counter() - started
        if gmres.residuals and gmres.residuals[-1] > gmres._final_residual:
            raise EngineError(
                "eigen_no_convergence",
                f"The shift-and-invert inner solve (GMRES + BDDC) did not reach {INNER_TOLERANCE:g} after "
                f"{steps[0]} iterations (residual {gmres.residuals[-1]:.1e}). Move the target frequency away "
                "from a resonance, refine the mesh or use linearSolver 'direct'.",
            )

    def describe(self) -> dict:
        return {
            "inner_solver": "GMRES + BDDC on K − σM",
            "inner_tolerance": INNER_TOLERANCE,
            "inner_solves": self.solves,
            "inner_iterations": self.iterations,
            "inner_worst_iterations": self.worst_iterations,
            "inner_seconds": round(self.seconds, 3),
        }
