"""The time-domain run in the results format: final fields, animation frames over time, time_domain_info.

`time_domain_info` holds the time axis, the scheme, probe signals (E in V/m, H in A/m), port signals
(voltage V, current A, modal amplitudes), voltage-source signals, the energy over time (J) and the
broadband frequency response, and each probe's ringing frequencies after a pulse (corrected for the
scheme's frequency warping). Signals longer than MAX_SIGNAL_SAMPLES are written every `sample_stride`
steps (the frequency response always uses every step).
"""

import math
from typing import Any

import numpy as np

from fieldline_engine.core.fields import Field, Frames
from fieldline_engine.em.field_catalogue import ANIMATION_KEY, em_field, field_frames
from fieldline_engine.em.static_results import SIDE_FILES_KEY
from fieldline_engine.em.transient.frequency_response import BAND_FLOOR, frequency_response
from fieldline_engine.em.transient.schemes import SCHEME_DESCRIPTIONS
from fieldline_engine.em.transient.solver import Probe, TransientRun, TransientSolver
from fieldline_engine.em.transient.warping import probe_resonances
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.post.grid_fields import grid_section

MAX_SIGNAL_SAMPLES = 5001


def _series(values: np.ndarray, stride: int) -> list:
    return np.asarray(values)[::stride].tolist()


def time_frames(run: TransientRun) -> Frames:
    """Snapshots at evenly spaced steps (the last one is the final state), like the phase frames."""
    return field_frames("time", list(run.frame_times), run.frames_e, run.frames_h)


def transient_quantities(run: TransientRun, resonances: dict[str, Any] | None) -> dict[str, float]:
    """The run's scalar figures (what adaptive refinement may follow between passes, docs/adaptive.md):
    the largest electromagnetic energy, the strongest ringing frequency at the first probe (corrected for the
    scheme's warping), the largest |V| at a port or voltage source, the largest |E| at a probe."""
    out: dict[str, float] = {}
    total = run.energy_electric + run.energy_magnetic
    if total.size:
        out["peak_energy_J"] = float(np.max(total))
    peaks = (resonances or {}).get("probes") or []
    if peaks and peaks[0].get("peaks"):
        out["resonance_frequency_Hz"] = float(peaks[0]["peaks"][0]["frequency_hz"])
    voltages = [*run.port_voltage.values(), *run.gap_voltage.values()]
    if voltages:
        out["peak_port_voltage_V"] = float(max(np.max(np.abs(v)) for v in voltages))
    if run.probe_e:
        out["peak_electric_field_V_per_m"] = float(
            max(np.max(np.linalg.norm(e, axis=1)) for e in run.probe_e.values())
        )
    return out


def transient_results(
    model: TetModel,
    config: dict[str, Any],
    solver: TransientSolver,
    run: TransientRun,
    probes: list[Probe],
    notes: list[str],
) -> tuple[list[Field], dict[str, Any]]:
    """The final state as named fields, and the rest of the results (time-domain info, frames, grid)."""
    stride = max(1, math.ceil(len(run.times) / MAX_SIGNAL_SAMPLES))
    energy_total = run.energy_electric + run.energy_magnetic
    ports_info = []
    for p in solver.ports:
        pid = p.port.port_id
        entry: dict[str, Any] = {
            "port_id": pid,
            "modal_amplitude": _series(run.port_modal[pid], stride),
            "incident_modal_amplitude": _series(run.port_incident[pid], stride),
        }
        if pid in run.port_voltage:
            entry["voltage"] = _series(run.port_voltage[pid], stride)
            entry["incident_voltage"] = _series(run.port_incident[pid] * (p.mode_voltage or 0.0), stride)
        if pid in run.port_current:
            entry["current"] = _series(run.port_current[pid], stride)
        ports_info.append(entry)
    sources_info = [
        {
            **g.describe(),
            "voltage": _series(run.gap_voltage[g.label], stride),
            "current": _series(run.gap_current[g.label], stride),
        }
        for g in solver.gaps
    ]
    steps_per_s = run.steps / run.seconds_stepping if run.seconds_stepping > 0 else None
    info: dict[str, Any] = {
        "times": _series(run.times, stride),
        "sample_stride": stride,
        "time_step": run.time_step,
        "end_time": run.steps * run.time_step,
        "steps": run.steps,
        "scheme": run.scheme,
        "scheme_description": SCHEME_DESCRIPTIONS[run.scheme],
        "excitation": {
            **solver.waveform.describe(),
            "sources": [s.name for s in solver.sources],
        },
        "probes": [
            {
                "name": pr.name,
                "point": [c / model.unit_scale for c in pr.point],
                "e": _series(run.probe_e[pr.name], stride),
                "h": _series(run.probe_h[pr.name], stride),
            }
            for pr in probes
        ],
        "ports": ports_info,
        "voltage_sources": sources_info,
        "energy": {
            "times": run.energy_times.tolist(),
            "electric": run.energy_electric.tolist(),
            "magnetic": run.energy_magnetic.tolist(),
            "total": energy_total.tolist(),
        },
        "performance": {
            "setup_s": run.seconds_setup,
            "stepping_s": run.seconds_stepping,
            "steps_per_s": steps_per_s,
            "dof_steps_per_s": steps_per_s * run.ndof if steps_per_s else None,
            "excitations_per_step": run.columns,
            "factor": run.factor,
        },
        "units": {"time": "s", "E": "V/m", "H": "A/m", "voltage": "V", "current": "A", "energy": "J"},
        "notes": list(notes),
    }
    if run.stability is not None:
        info["stability"] = run.stability.describe()
    response = frequency_response(solver, run, config)
    if response is not None:
        info["notes"] += response.pop("notes", [])
        info["frequency_response"] = response
    resonances = probe_resonances(
        run.times, run.probe_e, run.scheme, solver.waveform, solver.waveform.band(BAND_FLOOR)
    )
    if resonances is not None:
        # ringing after the pulse, corrected for the scheme's frequency warping (warping.py)
        info["resonances"] = resonances
    e, h = run.final_e, run.final_h
    results: dict[str, Any] = {
        "solver_info": {
            "elements": model.nt,
            "matrix_size": solver.ndof,
            "non_zeros": int(solver.system.K.nze),
            "frequency": solver.waveform.frequency,
            "analysis": "em-time",
            "element_order": solver.order,
            "time_scheme": run.scheme,
            "linear_solver": f"direct (sparse Cholesky, {run.factor}), factorized once",
            "steps": run.steps,
            "time_step": run.time_step,
            # throughput of the time loop (also under time_domain_info.performance)
            "steps_per_s": steps_per_s,
            "dof_steps_per_s": steps_per_s * run.ndof if steps_per_s else None,
            "threads": run.threads,
        },
        "time_domain_info": info,
        "quantities": transient_quantities(run, resonances),
        "units": {"length": "model", "E": "V/m", "H": "A/m", "time": "s"},
    }
    if run.stability is not None:
        # the explicit scheme's CFL limit, beside the Δt used
        results["solver_info"]["stable_time_step"] = run.stability.critical_time_step
    if solver.ports:
        results["ports"] = [p.describe() for p in solver.ports]
    if run.frames_e:
        results[ANIMATION_KEY] = time_frames(run)
    if config.get("gridFieldsEnabled") and run.final_fields:
        # the final state on the grid, like the vertex fields
        grid, files = grid_section(solver.mesh, model.vertices, model.unit_scale, config, run.final_fields)
        results["grid"] = grid
        if files:
            results[SIDE_FILES_KEY] = files
    return [em_field("electric_field", e), em_field("magnetic_field", h)], results
