"""Choosing and running the linear solver: sparse direct for small systems, preconditioned CG for large.

The choice (`linearSolver` in the config: auto | direct | cg-bddc | cg-amg | gmres-bddc) is made once per bilinear
form, before it is assembled, because NGSolve's BDDC and AMG preconditioners register with the form
and are built during assembly. One `LinearSolver` then solves any number of right-hand sides (the
columns of a capacitance matrix reuse the factorization or the preconditioner).
"""

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ngsolve as ng

from fieldline_engine import protocol
from fieldline_engine.core import amg
from fieldline_engine.core.h1_two_level import VertexTwoLevel
from fieldline_engine.core.hcurl_aux import AuxiliarySpaceHCurl
from fieldline_engine.errors import InvalidInput
from fieldline_engine.limits import address_space_limit_mb, parallel

# gmres-bddc is the full-wave family's iterative solver (em/fullwave/iterative.py); for the symmetric systems
# solved here it means CG with BDDC, GMRES's short-recurrence form for them.
SOLVER_CHOICES = ("auto", "direct", "cg-bddc", "cg-amg", "gmres-bddc")
# Above this many DOFs a 3D sparse factorization costs far more time and memory than CG with
# BDDC/AMG (measured here: order 3, 1.7e5 DOFs: Cholesky 55 s, CG + BDDC/AMG 2 s).
DIRECT_SOLVER_MAX_DOFS = 60_000
# Elasticity of order ≥ 2 with the two-level preconditioner (core/elasticity/vertex_coarse.py) overtakes the
# factorisation earlier. LE10, whole job, CPU s direct vs CG: 22.7 k DOFs 2.45 vs 2.48, 38.5 k 4.14 vs 3.14,
# 43.4 k 4.39 vs 3.53 (and 40 % less memory). Mirrored in contracts/src/resources.ts. With its vertex problem
# factored (structural/static.py) CG is cheaper on LE10 down to 9.8 k (1.32 vs 1.47 s), but not on thin parts,
# where the P1 coarse space locks in bending: a plate one element thick, 14 k unknowns, 282 iterations,
# 1.23 vs 0.45 s; 48 k, 561 iterations, 33 vs 2.5 s. So the threshold was not lowered. (Since then: 84 iterations
# with vertex-patch smoothing on that 48 k plate, and the stall fallback below for thinner ones.)
TWO_LEVEL_DIRECT_MAX_DOFS = 30_000

# A CG run under `auto` that may give way to the factorisation (`fallback_direct`) is watched: from
# STALL_CHECK_FROM iterations on, the residual's rate over the last STALL_WINDOW iterations predicts how many it
# needs; above STALL_PREDICTED_ITERATIONS it stops and the system is factored instead, when the factor's memory
# fits the job's limit and the system has at most FALLBACK_DIRECT_MAX_DOFS unknowns (the factor's time grows like
# n², CG's like n). The parts that stall are thin (the P1 coarse space locks in bending), and a thin part's factor
# is cheap: its separators are nearly 2D. Structural's two-level CG needs 27 iterations on LE10 and 84 on a plate
# one element thick (structural/static.py).
STALL_CHECK_FROM = 50
STALL_WINDOW = 25
STALL_PREDICTED_ITERATIONS = 400
FALLBACK_DIRECT_MAX_DOFS = 500_000
# solve_reusing judges after this many iterations whether CG with an earlier matrix's factor will converge in time.
REUSE_PROBE = 3
# The factor's peak memory as contracts/src/resources.ts MEMORY_MODEL estimates it for a displacement (real).
_DIRECT_BASE_BYTES = 1.0e9
_DIRECT_BYTES_PER_N43 = 210


class _Stalled(Exception):
    def __init__(self, iterations: int, rate: float, predicted: int):
        super().__init__()
        self.iterations, self.rate, self.predicted = iterations, rate, predicted


def predicted_iterations(residuals: list[float], tolerance: float) -> tuple[float, float]:
    """(rate per iteration over the last STALL_WINDOW residuals, iterations to reach tolerance × the first
    residual at that rate, counted from the start); infinite when the residual does not fall."""
    now, before = residuals[-1], residuals[-1 - STALL_WINDOW]
    if now <= 0:
        return 0.0, float(len(residuals))
    rate = (now / before) ** (1 / STALL_WINDOW) if before > 0 else 1.0
    if rate >= 1:
        return rate, math.inf
    remaining = math.log(tolerance * residuals[0] / now) / math.log(rate)
    return rate, len(residuals) - 1 + max(0.0, remaining)


def direct_fits(unknowns: int, limit_mb: int | None) -> bool:
    """The factor of a displacement system of this size fits the address-space limit (none: fits)."""
    need = _DIRECT_BASE_BYTES + _DIRECT_BYTES_PER_N43 * unknowns ** (4 / 3)
    return limit_mb is None or need <= limit_mb * 1024 * 1024


@dataclass
class SolveReport:
    method: str
    preconditioner: str | None = None
    iterations: list[int] = field(default_factory=list)
    converged: bool = True
    setup_seconds: float = 0.0
    solve_seconds: float = 0.0
    fallback: str | None = None  # why a CG run gave way to the factorisation

    def as_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"linear_solver": self.method, "solve_time": round(self.solve_seconds, 4)}
        if self.preconditioner:
            info["preconditioner"] = self.preconditioner
        if self.iterations:
            info["iterations"] = max(self.iterations)
            info["converged"] = self.converged
        if self.fallback:
            info["fallback"] = self.fallback
        return info


def solver_choice(config: dict[str, Any]) -> str:
    choice = str(config.get("linearSolver") or "auto")
    if choice not in SOLVER_CHOICES:
        raise InvalidInput(f"Unknown linear solver '{choice}'. Use one of: {', '.join(SOLVER_CHOICES)}.")
    return choice


def resolve_choice(choice: str, ndof: int, direct_max: int = DIRECT_SOLVER_MAX_DOFS) -> str:
    if choice == "gmres-bddc":
        return "cg-bddc"
    if choice != "auto":
        return choice
    return "direct" if ndof <= direct_max else "cg-amg"


class LinearSolver:
    """Direct or preconditioned CG for a symmetric form (SPD, or complex symmetric: CG without
    conjugation is then COCG). Create it before `a.Assemble()`; call `prepare()` after."""

    def __init__(
        self,
        a: ng.BilinearForm,
        fes: ng.FESpace,
        choice: str,
        tolerance: float,
        max_iterations: int,
        kind: str = "h1",
        progress: Callable[[float, str], None] | None = None,
        near_null: Any = None,
        two_level: Callable[[ng.BitArray], tuple[ng.BaseMatrix, str]] | None = None,
        unknowns: int | None = None,
        fallback_direct: bool = False,
        factor: Callable[[ng.BitArray], ng.BaseMatrix] | None = None,
        direct_max: int | None = None,
    ):
        self.a = a
        self.fes = fes
        # Scalar unknowns: fes.ndof counts nodes on a space of 3 × 3 blocks (core/elasticity/node_blocked.py).
        self.unknowns = unknowns or fes.ndof
        self._factor_of = factor  # freedofs → the factorisation, when a's own sparse Cholesky is not the one
        two_level_ready = two_level is not None
        if direct_max is None:  # a family may know where its own crossover lies (thermal/solve.py)
            direct_max = TWO_LEVEL_DIRECT_MAX_DOFS if two_level_ready else DIRECT_SOLVER_MAX_DOFS
        self.method = resolve_choice(choice, self.unknowns, direct_max)
        # `auto` only: a CG run that stalls is finished by the factorisation (STALL_PREDICTED_ITERATIONS).
        self._fallback_direct = (
            fallback_direct
            and choice == "auto"
            and self.unknowns <= FALLBACK_DIRECT_MAX_DOFS
            and direct_fits(self.unknowns, address_space_limit_mb())
        )
        self.tolerance = tolerance
        self.max_iterations = max_iterations
        self.progress = progress or (lambda _f, _m: None)
        self.report = SolveReport(method="direct" if self.method == "direct" else "cg")
        self._pre: ng.Preconditioner | None = None
        self._matrix: ng.BaseMatrix | None = None  # the system matrix when not a.mat (use_matrix)
        self._pre_matrix: ng.BaseMatrix | None = None
        self._inverse: Any = None
        self._freedofs: ng.BitArray | None = None
        self._near_null = near_null  # (ndof × k) modes AMG must keep, for kind "elasticity"
        self._kind = kind
        # cg-amg at order ≥ 2 for elasticity: freedofs → a two-level preconditioner and its name (Jacobi plus the
        # vertex subspace solved directly or by AMG, structural/static.py), built after assembly; no BDDC.
        self._two_level = two_level if self.method == "cg-amg" and two_level_ready else None
        self._use_pyamg = (
            self.method == "cg-amg"
            and kind in ("h1", "elasticity")
            and fes.globalorder == 1
            and not fes.is_complex
            and amg.available()
        )
        # cg-amg for real H1 scalar problems of order ≥ 2: Gauss–Seidel around AMG on the vertex DOFs (no BDDC).
        self._use_h1_two_level = (
            self.method == "cg-amg"
            and kind == "h1"
            and fes.globalorder >= 2
            and not fes.is_complex
            and amg.available()
        )
        # Real first-order Nédélec: the auxiliary-space preconditioner (core/hcurl_aux.py) over NGSolve's hcurlamg.
        self._use_aux_hcurl = (
            self.method == "cg-amg"
            and kind == "hcurl"
            and fes.globalorder == 1
            and not fes.is_complex
            and amg.available()
        )
        if self._use_pyamg:
            self.report.preconditioner = (
                "classical AMG (pyamg)" if kind == "h1" else "smoothed aggregation AMG (pyamg)"
            )
        elif self._use_h1_two_level:
            self.report.preconditioner = "Gauss-Seidel + vertex AMG (pyamg) two-level"
        elif self._use_aux_hcurl:
            self.report.preconditioner = "auxiliary-space AMG (Hiptmair–Xu, pyamg)"
        elif self._two_level is not None:
            pass  # named when built (prepare)
        elif self.method != "direct":
            name, kwargs = _preconditioner_for(self.method, kind, fes)
            self._pre = ng.Preconditioner(a, name, **kwargs)
            self.report.preconditioner = name + (f" (coarse: {kwargs['coarsetype']})" if kwargs else "")

    @property
    def takes_first_order_matrix(self) -> bool:
        """Whether the system matrix may come from outside NGSolve's assembly (use_matrix): CG with pyamg on a
        real first-order scalar system reads the matrix only as an operator and through its CSR arrays."""
        return self._use_pyamg and self._kind == "h1"

    def use_matrix(self, matrix: ng.BaseMatrix) -> None:
        """Solve with `matrix` (an operator that also answers CSR(), core/p1_stiffness.py) instead of a.mat,
        which is then never assembled."""
        assert self.takes_first_order_matrix
        self._matrix = matrix

    @property
    def mat(self) -> ng.BaseMatrix:
        return self._matrix if self._matrix is not None else self.a.mat

    def prepare(self, freedofs: ng.BitArray) -> None:
        started = time.perf_counter()
        self._freedofs = freedofs
        if self.method == "direct":
            self._factor()
            self.report.method = "direct (sparse Cholesky)"
        else:
            if self._use_pyamg:
                scalar = self._kind == "h1" and self._near_null is None
                amg_class = amg.ClassicalAMG if scalar else amg.SmoothedAggregation
                self._pre_matrix = amg_class(self.mat, freedofs, self._near_null)
            elif self._use_aux_hcurl:
                self._pre_matrix = AuxiliarySpaceHCurl(self.mat, self.fes, freedofs)
            elif self._two_level is not None:
                self._pre_matrix, self.report.preconditioner = self._two_level(freedofs)
            elif self._use_h1_two_level:
                self._pre_matrix = VertexTwoLevel(self.mat, freedofs, self.fes.mesh.nv)
            self.report.method = "preconditioned CG" + (
                " (COCG, complex symmetric)" if self.fes.is_complex else ""
            )
        self.report.setup_seconds += time.perf_counter() - started

    def _factor(self) -> None:
        # Cholesky (LDLᵀ without conjugation) serves SPD and complex-symmetric matrices alike.
        if self._factor_of is not None:
            self._inverse = self._factor_of(self._freedofs)
            return
        with parallel(self.unknowns):
            self._inverse = self.mat.Inverse(self._freedofs, inverse="sparsecholesky")

    def solve(self, rhs: ng.BaseVector, gf: ng.GridFunction, label: str = "Solving") -> None:
        """Adds the solution of A x = rhs (on the free DOFs) to gf, which holds the Dirichlet values."""
        started = time.perf_counter()
        if self._inverse is not None:  # direct, or a CG run that stalled earlier
            with parallel(self.unknowns):
                gf.vec.data += self._inverse * rhs
        else:
            self._solve_cg(rhs, gf, label)
        self.report.solve_seconds += time.perf_counter() - started

    def can_reuse(self) -> bool:
        """Whether a factor or a preconditioner of its own (not one NGSolve rebuilds at every assembly) is built."""
        return self._inverse is not None or self._pre_matrix is not None

    def solve_reusing(
        self, rhs: ng.BaseVector, gf: ng.GridFunction, tolerance: float, max_iterations: int
    ) -> int | None:
        """Adds the solution of today's `a.mat` x = rhs to gf by CG preconditioned with the factor or the
        preconditioner built for an earlier matrix (a Newton tangent changes little from step to step), and
        returns the iterations; None, with gf untouched, when CG would need more than max_iterations (judged
        from its rate after REUSE_PROBE iterations, so a hopeless attempt costs little): prepare() anew then."""
        started = time.perf_counter()
        pre = self._inverse if self._inverse is not None else self._pre_matrix
        solver: Any = None

        def on_iteration(it: int, _residual: float) -> None:
            res = solver.residuals
            if it == REUSE_PROBE and len(res) > REUSE_PROBE and res[0] > 0:
                rate = (res[-1] / res[0]) ** (1 / REUSE_PROBE)
                if rate >= 1 or math.log(tolerance) / math.log(max(rate, 1e-300)) > max_iterations:
                    raise _Stalled(it, rate, max_iterations + 1)

        solver = ng.solvers.CGSolver(
            self.mat, pre, tol=tolerance, maxiter=max_iterations, callback=on_iteration
        )
        correction = gf.vec.CreateVector()
        correction[:] = 0.0
        try:
            with parallel(self.unknowns):
                solver.Solve(rhs=rhs, sol=correction, initialize=True)
        except _Stalled:
            return None
        finally:
            self.report.solve_seconds += time.perf_counter() - started
        residuals = solver.residuals
        if not residuals or residuals[-1] > tolerance * residuals[0]:
            return None
        gf.vec.data += correction
        return int(solver.iterations)

    def _solve_cg(self, rhs: ng.BaseVector, gf: ng.GridFunction, label: str) -> None:
        last = [time.perf_counter()]
        solver: Any = None

        def on_iteration(it: int, residual: float) -> None:
            now = time.perf_counter()
            if now - last[0] > 0.5:  # throttled: one progress line per half second
                last[0] = now
                self.progress(min(0.95, it / self.max_iterations), f"{label}: CG iteration {it}")
            if self._fallback_direct and it >= STALL_CHECK_FROM and it % 5 == 0:
                rate, predicted = predicted_iterations(solver.residuals, self.tolerance)
                if predicted > STALL_PREDICTED_ITERATIONS:
                    raise _Stalled(
                        it, rate, min(int(predicted), 10**9) if math.isfinite(predicted) else 10**9
                    )

        if self._pre_matrix is not None:  # pyamg or a two-level form: built on exactly the free DOFs
            pre = self._pre_matrix
        else:
            assert self._pre is not None
            pre = self._pre.mat
        if self._pre_matrix is None and self._freedofs.NumSet() != self.fes.FreeDofs().NumSet():
            # A few more DOFs are fixed than the space knows (lone nodes, the reference node).
            project = ng.Projector(self._freedofs, True)
            pre = project @ pre @ project
        solver = ng.solvers.CGSolver(
            self.mat,
            pre,
            tol=self.tolerance,
            maxiter=self.max_iterations,
            callback=on_iteration,
        )
        correction = gf.vec.CreateVector()
        correction[:] = 0.0
        try:
            with parallel(self.unknowns):
                solver.Solve(rhs=rhs, sol=correction, initialize=True)
        except _Stalled as stall:
            self._finish_directly(rhs, gf, stall)
            return
        gf.vec.data += correction
        self.report.iterations.append(int(solver.iterations))
        if solver.iterations >= self.max_iterations:
            self.report.converged = False
            protocol.log(
                f"CG stopped after {solver.iterations} iterations (maxIterations) before reaching the "
                f"tolerance {self.tolerance:g}; results may be inaccurate.",
                level="warning",
            )

    def _finish_directly(self, rhs: ng.BaseVector, gf: ng.GridFunction, stall: _Stalled) -> None:
        """The factorisation after a stalled CG run; later right-hand sides reuse the factor."""
        if stall.rate < 1:
            pace = (
                f"the residual fell {100 * (1 - stall.rate):.2f} % per iteration over the last {STALL_WINDOW}, "
                f"so it would take about {stall.predicted} iterations"
            )
        else:
            pace = f"the residual did not fall over the last {STALL_WINDOW} iterations"
        self.report.fallback = (
            f"CG stalled after {stall.iterations} iterations ({pace}); solved directly by sparse Cholesky"
        )
        protocol.log(self.report.fallback + ".", level="info")
        self.progress(0.5, "CG is converging slowly: factorizing instead")
        self._factor()
        with parallel(self.unknowns):
            gf.vec.data += self._inverse * rhs
        self.report.iterations.append(stall.iterations)
        self.report.method = "direct (sparse Cholesky) after preconditioned CG stalled"


def _preconditioner_for(method: str, kind: str, fes: ng.FESpace) -> tuple[str, dict[str, Any]]:
    order = int(fes.globalorder)
    if kind == "hcurl":
        # Lowest-order Nédélec has only wirebasket DOFs, so BDDC would be a direct solve.
        return ("hcurlamg", {}) if method == "cg-amg" and order <= 1 else ("bddc", {})
    if method == "cg-amg" and kind == "h1":
        return ("h1amg", {}) if order == 1 else ("bddc", {"coarsetype": "h1amg"})
    # Elasticity of order ≥ 2 with cg-bddc (cg-amg is the two-level preconditioner when pyamg is there): BDDC
    # over a vertex-only wirebasket (core/elasticity/operator.py) whose coarse vertex problem is factored
    # directly; NGSolve's h1amg as the coarse solver breaks down on the vector wirebasket (singular coarse
    # matrix), and order 1 goes to pyamg with the rigid-body modes instead (LinearSolver._use_pyamg).
    return "bddc", {}
