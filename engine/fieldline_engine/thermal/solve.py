"""Steady and transient solves of the heat problem (thermal/heat.py)."""

from collections.abc import Callable
from dataclasses import dataclass, field

import ngsolve as ng
import numpy as np

from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.core.linear_solve import LinearSolver, SolveReport
from fieldline_engine.errors import InvalidInput
from fieldline_engine.limits import parallel
from fieldline_engine.protocol import SILENT, ProgressSpan
from fieldline_engine.thermal.heat import HeatProblem
from fieldline_engine.thermal.setup import TimeStepping

NEWTON_MAX_ITERATIONS = 50
NEWTON_TOLERANCE = 1e-9  # relative change of the temperature field
# `auto` factors a steady problem of order ≥ 2 only up to this many unknowns (60 000 for the other solves): one
# solve does not pay a factorisation back. Thick cylinder (bench/coupled), order 2: the thermal step in-process
# 3.6 k unknowns 0.049 vs 0.043 CPU s, 5.6 k 0.065 vs 0.077 (direct vs CG with BDDC, h1amg coarse); the whole
# thermal-structural job with CG above 10 k is 0.81× the factored one at 17.7 k thermal unknowns, 0.83× at 38 k.
# A transient keeps its factorisation for every step and is not affected.
STEADY_DIRECT_MAX_DOFS_ORDER2 = 10_000


@dataclass
class ThermalRun:
    temperature: ng.GridFunction
    report: SolveReport
    non_zeros: int
    flows: dict[str, float]  # condition label → heat into the body (W); steady: at the solution
    newton_iterations: int = 0
    # transient
    times: list[float] = field(default_factory=list)
    frames: list[np.ndarray] = field(default_factory=list)  # vertex temperatures at the frame times
    frame_times: list[float] = field(default_factory=list)
    probes: dict[str, list[float]] = field(default_factory=dict)
    energy_in: dict[str, float] = field(
        default_factory=dict
    )  # condition label (or "sources") → J over the run
    stored: float = 0.0  # J gained between the start and the end


def _solver(
    a: ng.BilinearForm, fes: ng.FESpace, options: SolverOptions, progress: ProgressSpan, steady: bool = False
) -> LinearSolver:
    return LinearSolver(
        a,
        fes,
        options.choice,
        options.tolerance,
        options.max_iterations,
        kind="h1",
        progress=lambda frac, msg: progress(frac, msg),
        direct_max=STEADY_DIRECT_MAX_DOFS_ORDER2 if steady and fes.globalorder >= 2 else None,
    )


def solve_steady(
    problem: HeatProblem, options: SolverOptions, initial: float, progress: ProgressSpan = SILENT
) -> ThermalRun:
    """A linear solve, or Newton iterations when faces radiate (each one a linear solve)."""
    fes = problem.fes
    state = ng.GridFunction(fes)
    radiating = bool(problem.setup.radiation)
    if radiating:  # the state only matters as the first linearisation point
        state.Set(ng.CF(_first_guess(problem, initial)))
    report = SolveReport(method="direct")
    iterations = 0
    while True:
        a = problem.conduction(state)
        f = problem.load(state)
        solver = _solver(a, fes, options, progress, steady=True)
        with parallel(fes.ndof):
            a.Assemble()
            f.Assemble()
        solver.prepare(fes.FreeDofs())
        new = problem.fixed_values()
        rhs = new.vec.CreateVector()
        rhs.data = f.vec - a.mat * new.vec
        solver.solve(rhs, new, "Solving the heat equation")
        _accumulate(report, solver.report)
        iterations += 1
        change = float(np.max(np.abs(new.vec.FV().NumPy() - state.vec.FV().NumPy())))
        scale = float(np.max(np.abs(new.vec.FV().NumPy()))) or 1.0
        linearised_about = ng.GridFunction(fes)
        linearised_about.vec.data = state.vec
        state.vec.data = new.vec
        if not radiating:
            break
        progress(
            min(0.9, 0.1 * iterations), f"Radiation: Newton iteration {iterations}, change {change:.2e} K"
        )
        if change <= NEWTON_TOLERANCE * scale:
            break
        if iterations >= NEWTON_MAX_ITERATIONS:
            raise InvalidInput(
                f"The radiation solve did not converge in {iterations} Newton iterations (last change "
                f"{change:.3g} K). Check the emissivities and ambient temperatures."
            )
    residual = state.vec.CreateVector()
    residual.data = a.mat * state.vec - f.vec
    flows = problem.fixed_face_flows(residual.FV().NumPy())
    flows.update(problem.boundary_flows(state, linearised_about))
    return ThermalRun(
        temperature=state, report=report, non_zeros=int(a.mat.nze), flows=flows, newton_iterations=iterations
    )


def _first_guess(problem: HeatProblem, initial: float) -> float:
    """Newton starts from the warmest fixed or ambient temperature (T⁴ is convex: from above it converges
    monotonically)."""
    temps = [initial] + [f.temperature for f in problem.setup.fixed]
    temps += [c.ambient for c in problem.setup.convection] + [r.ambient for r in problem.setup.radiation]
    return max(temps)


def _accumulate(total: SolveReport, step: SolveReport) -> None:
    total.method = step.method
    total.preconditioner = step.preconditioner
    total.iterations.extend(step.iterations)
    total.converged = total.converged and step.converged
    total.setup_seconds += step.setup_seconds
    total.solve_seconds += step.solve_seconds


def solve_transient(
    problem: HeatProblem,
    stepping: TimeStepping,
    options: SolverOptions,
    frame_count: int,
    probe_points: dict[str, tuple[float, float, float]],
    nv: int,
    progress: ProgressSpan = SILENT,
    initial_field: np.ndarray | None = None,
    on_frame: Callable[[ng.GridFunction], None] | None = None,
) -> ThermalRun:
    """θ-scheme: (M/Δt + θA) Tⁿ⁺¹ = (M/Δt − (1−θ)A) Tⁿ + F. Without radiation the matrix is factored
    (or preconditioned) once for all steps; radiating faces re-linearise about Tⁿ every step.

    `initial_field`: the start as vertex temperatures (another run's, fieldsFrom), set as their
    piecewise-linear interpolant — the vertex DOFs are those values exactly — and recorded as a frame at
    t = 0, so the animation shows where the run started. `on_frame`: called with the temperature at every
    saved frame after t = 0 (adaptive refinement estimates the error of the history there)."""
    fes, mesh = problem.fes, problem.mesh
    dt, theta = stepping.time_step, stepping.theta
    state = ng.GridFunction(fes)
    if initial_field is None:
        state.Set(ng.CF(stepping.initial))
    else:
        state.vec.FV().NumPy()[:] = 0.0  # higher-order (hierarchical) DOFs 0: the linear interpolant
        state.vec.FV().NumPy()[:nv] = initial_field
    fixed = problem.fixed_values()
    m = problem.mass()
    with parallel(fes.ndof):
        m.Assemble()
    radiating = bool(problem.setup.radiation)
    report = SolveReport(method="direct")
    system = a = f = solver = None
    initial_energy = problem.stored_energy(state)
    energy_in: dict[str, float] = {"sources": 0.0}
    frame_every = max(1, stepping.steps // max(1, frame_count))
    run = ThermalRun(temperature=state, report=report, non_zeros=0, flows={})
    probes = {name: mesh(*p) for name, p in probe_points.items()}
    _record(run, state, 0.0, probes)
    if initial_field is not None:
        run.frame_times.append(0.0)
        run.frames.append(state.vec.FV().NumPy()[:nv].copy())
    previous = ng.GridFunction(fes)
    for n in range(1, stepping.steps + 1):
        if system is None or radiating:
            a = problem.conduction(state)
            f = problem.load(state)
            u, v = fes.TnT()
            system = ng.BilinearForm(fes, symmetric=True)
            system += (problem.rho_c / dt) * u * v * ng.dx
            system += theta * problem.k * ng.grad(u) * ng.grad(v) * ng.dx
            for c in problem.setup.convection:
                system += theta * c.coefficient * u * v * ng.ds(c.label)
            for r in problem.setup.radiation:
                system += theta * 4 * r.emissivity * 5.670374419e-8 * state**3 * u * v * ng.ds(r.label)
            solver = _solver(system, fes, options, progress)
            with parallel(fes.ndof):
                a.Assemble()
                f.Assemble()
                system.Assemble()
            solver.prepare(fes.FreeDofs())
            linearised_about = ng.GridFunction(fes)
            linearised_about.vec.data = state.vec
        previous.vec.data = state.vec
        rhs = state.vec.CreateVector()
        rhs.data = (1.0 / dt) * (m.mat * previous.vec) - (1 - theta) * (a.mat * previous.vec) + f.vec
        new = ng.GridFunction(fes)
        new.vec.data = fixed.vec
        rhs.data -= system.mat * new.vec
        solver.solve(rhs, new, f"Time step {n}")
        # Heat supplied during the step, from the same discrete forms (so stored = Σ in exactly).
        both = new.vec.CreateVector()
        both.data = (1.0 / dt) * (m.mat * (new.vec - previous.vec)) + theta * (a.mat * new.vec)
        both.data += (1 - theta) * (a.mat * previous.vec) - f.vec
        t_theta = theta * new + (1 - theta) * previous
        flows = problem.fixed_face_flows(both.FV().NumPy())
        flows.update(problem.boundary_flows(t_theta, linearised_about))
        for label, w in flows.items():
            energy_in[label] = energy_in.get(label, 0.0) + w * dt
        energy_in["sources"] += problem.source_power() * dt
        state.vec.data = new.vec
        t = n * dt
        run.times.append(t)
        for name, point in probes.items():
            run.probes[name].append(float(state(point)))
        if n % frame_every == 0 or n == stepping.steps:
            run.frame_times.append(t)
            run.frames.append(state.vec.FV().NumPy()[:nv].copy())
            if on_frame is not None:
                on_frame(state)
        _accumulate(report, solver.report)
        solver.report = SolveReport(method=solver.report.method, preconditioner=solver.report.preconditioner)
        if n % max(1, stepping.steps // 50) == 0:
            progress(n / stepping.steps, f"Time step {n} of {stepping.steps}")
    run.non_zeros = int(system.mat.nze) if system is not None else 0
    run.flows = flows
    run.energy_in = energy_in
    run.stored = problem.stored_energy(state) - initial_energy
    return run


def _record(run: ThermalRun, state: ng.GridFunction, t: float, probes: dict) -> None:
    run.times.append(t)
    for name, point in probes.items():
        run.probes.setdefault(name, []).append(float(state(point)))
