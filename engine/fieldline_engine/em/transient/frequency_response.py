"""Broadband frequency response from one pulse run: the DTFTs of the port signals.

Wave ports: the port condition n×H = Y0(2E_inc − E_t) fixes the modal "current" i = Y0(2a_inc − a) from
the recorded total modal amplitude a and the known incident one, so the waves relative to the guide's
own impedance Z(f) are a⁺ = (A + Z·I)/2 into the model and a⁻ = (A − Z·I)/2 out of it (A, I the
transforms). With power normalisation √(N/2|Z|) this gives the modal S column of the driven port,
S_qp = a⁻_q/a⁺_p, comparable with the frequency-domain solver's. TEM ports are matched at every
frequency (Z = 1/Y0, so a⁺ is the incident wave); a TE/TM port is matched only at the carrier, and
its mismatch elsewhere (reported) makes the passive ports slightly non-matched loads.
Voltage (gap) sources: Z_in(f) = V(f)/I(f) and S11 against the source resistance.
"""

import math
from typing import Any

import numpy as np

from fieldline_engine.em.constants import C0
from fieldline_engine.em.transient.solver import TransientRun, TransientSolver
from fieldline_engine.em.transient.spectrum import dtft

# Where the drive's spectrum is below this fraction of its peak, a ratio of transforms is noise.
BAND_FLOOR = 1e-3
AUTO_POINTS = 101


def response_frequencies(config: dict[str, Any], band: tuple[float, float]) -> tuple[np.ndarray, list[str]]:
    lo, hi = band
    notes: list[str] = []
    if config.get("calculateSParameters") or config.get("extractSParameters"):
        f_min = float(config.get("sParamFreqMin") or 1e9)
        f_max = float(config.get("sParamFreqMax") or 1e10)
        count = int(config.get("sParamNumPoints") or 101)
        freqs = np.linspace(f_min, f_max, count) if count > 1 else np.array([f_min])
        keep = (freqs >= lo) & (freqs <= hi) & (freqs > 0)
        if not keep.all():
            notes.append(
                f"{int((~keep).sum())} of {len(freqs)} requested frequencies lie outside the pulse's band "
                f"({lo / 1e9:.4g}–{hi / 1e9:.4g} GHz) and were left out."
            )
        return freqs[keep], notes
    start = max(lo, hi / AUTO_POINTS)
    return np.linspace(start, hi, AUTO_POINTS), notes


def _truncation_note(name: str, signal: np.ndarray) -> str | None:
    peak = float(np.max(np.abs(signal))) or 1.0
    tail = float(np.max(np.abs(signal[-max(3, len(signal) // 20) :])))
    if tail > 1e-2 * peak:
        return (
            f"{name}: the signal has not died out by endTime ({tail / peak:.1%} of its peak in the last 5 %), "
            "so its spectrum is truncated; a longer endTime sharpens the frequency response."
        )
    return None


def frequency_response(
    solver: TransientSolver, run: TransientRun, config: dict[str, Any]
) -> dict[str, Any] | None:
    wf = solver.waveform
    if wf.shape == "sinusoidal":
        return None
    lo, hi = wf.band(BAND_FLOOR)
    freqs, notes = response_frequencies(config, (lo, hi))
    if not len(freqs):
        return None
    out: dict[str, Any] = {"frequencies": freqs.tolist(), "band_hz": [lo, hi], "notes": notes}
    driven = [p for p in solver.ports if p.port.port_id in run.driven_ports]
    if len(driven) == 1 and not solver.gaps and not solver.currents:
        out["s_parameters"] = _port_column(solver, run, driven[0], freqs, notes)
    elif solver.ports and driven:
        notes.append("S-parameters need exactly one driven port and no other source; none were derived.")
    if solver.gaps:
        out["voltage_sources"] = [_gap_response(g, run, freqs, notes) for g in solver.gaps]
    return out


def mode_impedances(solver: TransientSolver, freqs: np.ndarray) -> np.ndarray:
    """(frequencies, ports) complex wave impedance Z(f) of each port's mode."""
    return np.array(
        [
            [complex(p.port.propagation(2 * math.pi * f / C0).wave_impedance) for p in solver.ports]
            for f in freqs
        ]
    ).reshape(len(freqs), len(solver.ports))


def port_waves(
    solver: TransientSolver, run: TransientRun, freqs: np.ndarray, notes: list[str]
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Power-normalised modal waves (a⁺ into the model, a⁻ out of it) at every port, per frequency."""
    t = run.times
    waves = {}
    z_all = mode_impedances(solver, freqs)
    for k, p in enumerate(solver.ports):
        pid = p.port.port_id
        total = dtft(t, run.port_modal[pid], freqs)
        inc = dtft(t, run.port_incident[pid], freqs)
        z = z_all[:, k]
        current = (2 * inc - total) / p.impedance
        norm = np.sqrt(p.norm / (2 * np.abs(z)))
        waves[pid] = ((total + z * current) / 2 * norm, (total - z * current) / 2 * norm)
        note = _truncation_note(f"Port {pid}", run.port_modal[pid] - run.port_incident[pid])
        if note and note not in notes:
            notes.append(note)
    return waves


def _port_column(solver, run, drive, freqs, notes) -> dict[str, Any]:
    column: dict[str, list[list[float]]] = {}
    waves = port_waves(solver, run, freqs, notes)
    a_drive = waves[drive.port.port_id][0]
    for q, p in enumerate(solver.ports):
        s = waves[p.port.port_id][1] / a_drive
        column[f"S{q + 1}{solver.ports.index(drive) + 1}"] = [[float(v.real), float(v.imag)] for v in s]
    mismatch = [
        {"port_id": p.port.port_id, "max_reflection": max(p.reflection_at(f) for f in freqs)}
        for p in solver.ports
        if p.matched_frequency is not None
    ]
    out: dict[str, Any] = {
        "driven_port": drive.port.port_id,
        "port_ids": [p.port.port_id for p in solver.ports],
        "normalization": "modal (each port's mode, 1 W), as the frequency-domain wave_port method",
        "phasor_convention": "e^{+jwt}",
        "column": column,
    }
    if mismatch:
        out["port_mismatch"] = mismatch
    return out


def _gap_response(gap, run, freqs, notes) -> dict[str, Any]:
    t = run.times
    v = dtft(t, run.gap_voltage[gap.label], freqs)
    i = dtft(t, run.gap_current[gap.label], freqs)
    z_in = v / i
    s11 = (z_in - gap.resistance) / (z_in + gap.resistance)
    note = _truncation_note(f"Voltage source {gap.label}", run.gap_current[gap.label])
    if note:
        notes.append(note)
    return {
        "label": gap.label,
        "reference_impedance_ohm": gap.resistance,
        "input_impedance_ohm": [[float(z.real), float(z.imag)] for z in z_in],
        "s11": [[float(s.real), float(s.imag)] for s in s11],
    }
