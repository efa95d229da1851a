"""`analysisType: "em-time"`: the time-domain full-wave run on the uploaded tetrahedra → results (spec 001 §3).

Boundaries as in the frequency domain (docs/fullwave.md): outer faces without a condition are PEC,
Neumann faces PMC, wave ports matched one-way boundaries that also launch the pulse. Dirichlet face
groups at different voltages are conductors with a resistive voltage source on the gap between them.
"""

from typing import Any

import numpy as np

from fieldline_engine import protocol
from fieldline_engine.core.adaptive.settings import adaptive_requested
from fieldline_engine.core.solution import Solution
from fieldline_engine.em.adaptive_estimates import FULLWAVE_TOLERANCE
from fieldline_engine.em.boundary_conditions import ResolvedBoundaries, resolve_boundaries
from fieldline_engine.em.field_catalogue import em_solution
from fieldline_engine.em.fullwave.job import fullwave_labels, pmc_labels, port_filling
from fieldline_engine.em.materials import body_materials
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.em.transient.config import probe_points, time_grid, volume_currents
from fieldline_engine.em.transient.gap_source import build_gap_source, find_gaps
from fieldline_engine.em.transient.history_estimate import WaveHistory, band_s_parameters
from fieldline_engine.em.transient.output import transient_results
from fieldline_engine.em.transient.smatrix import (
    configured_single_drive,
    full_matrix_wanted,
    ports_to_excite,
    s_matrix,
    why_no_matrix,
)
from fieldline_engine.em.transient.solver import TransientRun, TransientSolver, transient_media
from fieldline_engine.em.transient.waveforms import pulse_resolution_note, waveform_from_config
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.curving import curve_mesh
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
from fieldline_engine.mesh.tet_model import TetModel

# Progress: setup up to here, the time loop from here to STEP_END, then post-processing.
STEP_START, STEP_END = 15.0, 90.0
MAX_ENERGY_SAMPLES = 250


def resistive_walls(bnd: ResolvedBoundaries, config: dict[str, Any]) -> list[tuple[str, float]]:
    """Impedance walls in the time domain: a real, positive Z_s is a resistive sheet (n×H = E_t/Z_s) at
    every frequency. A reactive Z_s or a conductor given by σ depends on frequency and has no such form."""
    walls = []
    conditions = config.get("impedanceConditions") or []
    for (label, z), cond in zip(bnd.impedance, conditions, strict=True):
        if cond.get("conductivity") is not None or z.imag != 0 or z.real <= 0:
            raise InvalidInput(
                f"Impedance condition {label.removeprefix('impedance_')}: the time-domain analysis takes a "
                "resistive wall only (a real surface impedance above 0 Ω, imag = 0). A reactive impedance or a "
                "conductor given by its conductivity depends on frequency: use the frequency-domain analysis."
            )
        walls.append((label, z.real))
    return walls


def solve_transient_job(model: TetModel, config: dict[str, Any]) -> Solution:
    grid = time_grid(config)
    order = int(config.get("meshOrder", 1))
    if order not in (1, 2, 3):
        raise InvalidInput("meshOrder (element order) must be 1, 2 or 3.")
    waveform = waveform_from_config(config, grid.end_time)
    bnd = resolve_boundaries(model, config)
    if bnd.dirichlet_vertices:
        raise InvalidInput(
            "A time-domain voltage source needs whole faces at each voltage; some Dirichlet nodes are not "
            "covered by faces at one voltage. Use face groups (dirichletFaceConditions)."
        )
    labels, pec = fullwave_labels(model, bnd)
    gaps = find_gaps(model, labels, bnd.dirichlet)
    if len({g.voltage for g in bnd.dirichlet}) >= 2 and not gaps:
        raise InvalidInput(
            "The Dirichlet face groups are at different voltages but no gap between them was found: a voltage "
            "source needs outer faces without a condition that touch both groups (e.g. the annulus between "
            "the conductors at a coaxial feed)."
        )
    for gap in gaps:
        labels[gap.rows] = gap.label

    protocol.progress(5, "Building mesh")
    mesh = build_ngsolve_mesh(model, labels)
    curving = curve_mesh(mesh, model, config, order)
    bodies = body_materials(model, config)
    media, notes = transient_media(mesh, bodies, waveform.frequency)
    if (resolution := pulse_resolution_note(waveform, grid.time_step)) is not None:
        notes.append(resolution)

    protocol.progress(8, "Port modes and sources")
    ports = []
    pmc = pmc_labels(labels)
    for label, spec in bnd.ports:
        eps_r, mu_r = port_filling(model, labels, label, bodies)
        if abs(complex(eps_r).imag) > 0:
            eps_r = complex(eps_r).real
        amplitude = spec.get("amplitude")
        ports.append(
            build_wave_port(
                mesh,
                label,
                str(spec.get("portID", len(ports) + 1)),
                str(spec.get("mode") or "TE10"),
                eps_r,
                mu_r,
                amplitude=float(amplitude if amplitude is not None else 1.0),
                phase_deg=float(spec.get("phase", 0.0) or 0.0),
                order=order,
                pec=pec,
                pmc=pmc,
            )
        )
    resistance = float(config.get("portImpedance") or 50.0)
    gap_sources = [build_gap_source(mesh, gap, resistance) for gap in gaps]
    currents = volume_currents(model, config, mesh)
    walls = resistive_walls(bnd, config)
    solver = TransientSolver(mesh, media, order, pec, waveform, ports, gap_sources, currents, walls)

    stability = None
    if grid.scheme == "explicit":
        protocol.progress(11, "Stable time step (largest eigenvalue of K against M)")
        stability = solver.stability_limit()
        if grid.time_step > stability.critical_time_step:
            raise InvalidInput(
                f"timeStep {grid.time_step:.4g} s is above the explicit scheme's stability limit "
                f"{stability.critical_time_step:.4g} s (Δt < 2/ω_max, ω_max = {stability.omega_max:.4g} rad/s "
                "from the largest eigenvalue of K against M). Use a timeStep below the limit, or the newmark "
                "or implicit scheme."
            )

    points, names = probe_points(model, config)
    probes, probe_notes = solver.probes_at(points, names)
    notes += probe_notes
    frames = int(config.get("animationFrames", 50) or 50) if config.get("animate") else 0

    # With a full S-matrix asked for, every other port gets a pulse of its own (a column of the state).
    extra = ports_to_excite(solver) if full_matrix_wanted(config, solver) else []
    if (note := why_no_matrix(config, solver)) is not None:
        notes.append(note)
    # The other ports' pulses step in the same loop as the configured run: more columns, one factor.
    label = (
        f"Configured excitation + {len(extra)} port excitation{'s' if len(extra) > 1 else ''}: "
        if extra
        else ""
    )

    def stepping_progress(n: int, total: int) -> None:
        pct = 100.0 * n / total
        protocol.progress(
            STEP_START + (STEP_END - STEP_START) * n / total,
            f"{label}{'time' if label else 'Time'} step {n}/{total} ({pct:.0f}%)",
        )

    # An adaptive pass estimates the error of the history at sampled steps (history_estimate.py).
    history = WaveHistory(model, mesh, bodies, order, grid.steps) if adaptive_requested(config) else None
    protocol.progress(
        STEP_START, f"Time stepping: {grid.steps} steps of {grid.time_step:.4g} s, {solver.ndof} unknowns"
    )
    run = solver.run(
        grid.scheme,
        grid.time_step,
        grid.steps,
        probes=probes,
        frames=frames,
        vertex_count=model.nv,
        energy_stride=max(1, int(np.ceil(grid.steps / MAX_ENERGY_SAMPLES))),
        progress=stepping_progress,
        stability=stability,
        also_drive=extra,
        on_sample=history,
    )
    matrix_runs = port_by_port_runs(solver, run) if extra else {}
    protocol.progress(STEP_END, "Frequency response and results")
    fields, results = transient_results(model, config, solver, run, probes, notes)
    if matrix_runs:
        matrix = s_matrix(solver, matrix_runs, config, results["time_domain_info"]["notes"])
        if matrix is not None:
            matrix["performance"] = {
                "runs": len(matrix_runs),
                "stepping_s": run.seconds_stepping,
                "time_loops": 1,
                "factorizations": solver.system.factorizations,
            }
            results["s_parameters"] = matrix
    results["solver_info"]["curved_geometry"] = curving
    s_band = band_s_parameters(results) if history is not None else None
    solution = em_solution(fields, results, phases=False)
    if history is not None:
        solution.error_estimate = history.estimate(solver.ndof, solution.quantities, s_band)
        if s_band is not None and config["adaptiveRefinement"].get("quantity") == "S":
            solution.error_estimate.default_tolerance = FULLWAVE_TOLERANCE  # HFSS's |ΔS| 0.02
    return solution


def port_by_port_runs(solver: TransientSolver, main: TransientRun) -> dict[str, TransientRun]:
    """One column per wave port: the ports `main` stepped alone beside the configured excitation
    (`also_drive`), and the configured run itself for the port it drives alone, if any."""
    runs: dict[str, TransientRun] = dict(main.port_drive_runs)
    alone = configured_single_drive(solver)
    if alone is not None:
        runs[alone] = main
    return runs
