"""GMRES with a BDDC preconditioner for full-wave systems too large to factorize.

The preconditioner is NGSolve's BDDC built on the complex, indefinite system itself (ports, walls and the
PML's stretched terms included): its element-interior solves are local and its wirebasket (the lowest-order
Nédélec edges) is factorized directly, so the coarse problem carries the indefinite, low-frequency part of
the operator. Measured on WR-90 (100 mm, 10 GHz, order 2): 44 GMRES iterations to 1e-8, against 220 with
BDDC on the real SPD auxiliary operator (curl-curl + k0² mass, Palace's recipe), so the complex one is used.

Memory is linear in the unknowns: the assembled matrix, BDDC's element matrices and wirebasket factor, and
GMRES's Krylov basis (restarted after RESTART vectors to bound it).
"""

import math
import time
from dataclasses import dataclass
from typing import Any

import ngsolve as ng

from fieldline_engine.errors import EngineError, InvalidInput

# `linearSolver: auto` factorizes up to this many unknowns (a direct solve of ~100 k complex Nédélec
# unknowns takes ≈ 2 GB and seconds) and iterates beyond, or earlier when the factor would not fit.
FULLWAVE_DIRECT_MAX_DOFS = 100_000
DEFAULT_TOLERANCE = 1e-7
DEFAULT_MAX_ITERATIONS = 400
RESTART = 60
# The preconditioned residual GMRES minimizes can understate the true one; past this the answer is wrong.
TRUE_RESIDUAL_LIMIT = 1e-4
# …or past this multiple of the tolerance the solve iterated to (the true residual runs 3–6× the
# preconditioned one GMRES stops on), for solves looser than the user's tolerance (below).
TRUE_RESIDUAL_PER_TOLERANCE = 40


def s_only_tolerance(tolerance: float) -> float:
    """Tolerance of a solve whose only output is S (no fields kept). S is corrected by the adjoint-weighted
    residual (solver.py), which leaves an error of ≈ 20–26·tol², where the plain overlaps of a solve to
    `tolerance` are off by ≈ 1–4.5·tolerance (WR-90 meshes of 1.5 k and 73 k unknowns, issue 19). Iterating
    to ⅛√tolerance keeps S at least as accurate as the plain solve to `tolerance`, with ≈ 20 % fewer
    iterations at the default 1e-6."""
    return max(tolerance, min(math.sqrt(tolerance) / 8, 1e-3))


# Any iterative `linearSolver` choice: the H1 families' CG variants mean "iterate" here too.
ITERATIVE_CHOICES = ("iterative", "gmres-bddc", "cg-bddc", "cg-amg")

# Peak memory of a direct factorization (contracts/src/resources.ts MEMORY_MODEL.fullWaveDirect: UMFPACK's
# LU of the complex system).
_DIRECT_BASE_BYTES = 1.0e9
_DIRECT_BYTES_PER_N43 = 2 * 255


def direct_memory_bytes(ndof: int) -> float:
    return _DIRECT_BASE_BYTES + _DIRECT_BYTES_PER_N43 * ndof ** (4 / 3)


def fullwave_method(choice: str, ndof: int, memory_limit_mb: int | None = None) -> str:
    """'direct' or 'iterative' for a `linearSolver` choice: auto factorizes small systems whose factor fits."""
    if choice == "direct":
        return "direct"
    if choice in ITERATIVE_CHOICES:
        return "iterative"
    fits = memory_limit_mb is None or direct_memory_bytes(ndof) <= memory_limit_mb * 1024 * 1024
    return "direct" if ndof <= FULLWAVE_DIRECT_MAX_DOFS and fits else "iterative"


@dataclass
class SolveRecord:
    frequency: float
    port: int
    iterations: int
    residual: float  # ‖b − A x‖ / ‖b‖ on the free unknowns
    seconds: float
    tolerance: float  # what GMRES iterated to: the user's, or s_only_tolerance of it

    def as_info(self) -> dict[str, Any]:
        return {
            "frequency": self.frequency,
            "port": self.port,
            "iterations": self.iterations,
            "residual": float(f"{self.residual:.3e}"),
            "seconds": round(self.seconds, 3),
            "tolerance": self.tolerance,
        }


class IterativeInverse:
    """Solves A x = b by GMRES + BDDC. The preconditioner must be registered on the form before it is
    assembled; each assembly (a new frequency) rebuilds it."""

    def __init__(self, a: ng.BilinearForm, freedofs: ng.BitArray, tolerance: float, max_iterations: int):
        self.a = a
        self.freedofs = freedofs
        self.tolerance = tolerance
        self.max_iterations = max_iterations
        self.pre = ng.Preconditioner(a, "bddc")
        self.frequency = 0.0
        self.records: list[SolveRecord] = []
        self.last_residual: ng.BaseVector | None = None  # b − A x of the last solve, on the free unknowns
        # Per frequency, how far the adjoint-residual correction moved S: the plain overlaps' error.
        self.s_corrections: list[dict[str, float]] = []
        # Per frequency whose ports were shared by forked processes: each child's ports, CPU and memory.
        self.port_processes: list[dict[str, Any]] = []

    def _preconditioner(self) -> ng.BaseMatrix:
        pre = self.pre.mat
        if self.freedofs.NumSet() != self.a.space.FreeDofs().NumSet():
            project = ng.Projector(self.freedofs, True)  # metal bodies' unknowns are fixed too
            pre = project @ pre @ project
        return pre

    def solve(self, rhs: ng.BaseVector, port: int = 0, tolerance: float | None = None) -> ng.BaseVector:
        """A⁻¹ rhs to `tolerance` (default: the user's)."""
        started = time.perf_counter()
        tolerance = tolerance or self.tolerance
        # NGSolve's GMRESSolver restarts by solving anew and keeps only that solver's count, so a solve
        # past RESTART vectors reported the last cycle's iterations alone: count them here instead.
        steps = [0]

        def count(_iteration: int, _residual: float) -> None:
            steps[0] += 1

        gmres = ng.solvers.GMRESSolver(
            mat=self.a.mat,
            pre=self._preconditioner(),
            tol=tolerance,
            maxiter=self.max_iterations,
            restart=RESTART,
            printrates=False,
            callback=count,
        )
        x = rhs.CreateVector()
        x[:] = 0
        with ng.TaskManager():
            gmres.Solve(rhs=rhs, sol=x, initialize=True)
        residual = self._true_residual(rhs, x)
        record = SolveRecord(
            self.frequency, port, steps[0], residual, time.perf_counter() - started, tolerance
        )
        self.records.append(record)
        stalled = gmres.residuals and gmres.residuals[-1] > gmres._final_residual
        if stalled or not residual <= max(TRUE_RESIDUAL_LIMIT, TRUE_RESIDUAL_PER_TOLERANCE * tolerance):
            raise EngineError(
                "solver_not_converged",
                f"The iterative full-wave solve did not converge at {self.frequency / 1e9:.6g} GHz (port "
                f"{port + 1}): relative residual {residual:.1e} after {record.iterations} GMRES iterations "
                f"(tolerance {tolerance:g}, maxIterations {self.max_iterations}). Raise maxIterations, "
                "refine the mesh (at least 5 elements per wavelength) or use linearSolver 'direct'.",
            )
        return x

    def _true_residual(self, rhs: ng.BaseVector, x: ng.BaseVector) -> float:
        project = ng.Projector(self.freedofs, True)
        r = rhs.CreateVector()
        with ng.TaskManager():
            r.data = rhs - self.a.mat * x
        r.data = project * r
        self.last_residual = r
        b = rhs.CreateVector()
        b.data = project * rhs
        norm_b = ng.Norm(b)
        return ng.Norm(r) / norm_b if norm_b > 0 else 0.0

    def record_s_correction(self, frequency: float, max_change: float) -> None:
        self.s_corrections.append({"frequency": frequency, "max_change": float(f"{max_change:.3e}")})

    def describe(self) -> dict[str, Any]:
        """solver_info's account of the solves: the method and, per frequency and port, iterations and residual."""
        iterations = [r.iterations for r in self.records]
        return {
            "linear_solver": "GMRES + BDDC (iterative)",
            "preconditioner": "BDDC on the complex system (wirebasket factorized)",
            "tolerance": self.tolerance,
            "max_iterations": max(iterations) if iterations else 0,
            "iterative_solves": [r.as_info() for r in self.records],
            # S is corrected by the adjoint-weighted residual; the change is the plain overlaps' error.
            "s_corrections": self.s_corrections,
            **({"port_processes": self.port_processes} if self.port_processes else {}),
        }


def iteration_settings(config: dict[str, Any]) -> tuple[float, int]:
    """(tolerance, maxIterations) from the config (spec 001 §3 solver settings)."""
    tolerance = float(config.get("tolerance") or DEFAULT_TOLERANCE)
    max_iterations = int(config.get("maxIterations") or DEFAULT_MAX_ITERATIONS)
    if not (0 < tolerance < 1 and math.isfinite(tolerance)):
        raise InvalidInput("tolerance must be between 0 and 1 (a relative residual).")
    if max_iterations < 1:
        raise InvalidInput("maxIterations must be at least 1.")
    return tolerance, max_iterations
