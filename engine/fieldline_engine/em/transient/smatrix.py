"""The full N×N S-matrix from a time-domain run: one pulse per port (openEMS-style port-by-port excitation).

Each run drives one wave port with a unit pulse while the others are matched loads; its DTFTs give one
column, S_qp = a⁻_q / a⁺_p (frequency_response.port_waves: modal, 1 W per port's mode, e^{+jωt}). The
system matrices and their factorization are shared by the runs (only the right-hand side changes), so an
N-port matrix costs N× the stepping, not N× the setup. A run of the configured excitation that drives a
single port already is that port's column. The result has the frequency-domain sweep's shape
(em/fullwave/sweep.py), so the S-parameter views and the Touchstone writer take it unchanged.
"""

from typing import Any

import numpy as np

from fieldline_engine.em.fullwave.sparameters import (
    RENORMALISING_METHODS,
    S_PARAM_METHODS,
    renormalise,
)
from fieldline_engine.em.transient.frequency_response import (
    BAND_FLOOR,
    mode_impedances,
    port_waves,
    response_frequencies,
)
from fieldline_engine.em.transient.solver import TransientRun, TransientSolver
from fieldline_engine.em.transient.spectrum import dtft
from fieldline_engine.errors import InvalidInput


def full_matrix_wanted(config: dict[str, Any], solver: TransientSolver) -> bool:
    """S-parameters requested, two or more wave ports, ports as the only sources, and a pulse."""
    asked = bool(config.get("calculateSParameters") or config.get("extractSParameters"))
    return (
        asked
        and len(solver.ports) >= 2
        and not solver.gaps
        and not solver.currents
        and solver.waveform.shape != "sinusoidal"
    )


def why_no_matrix(config: dict[str, Any], solver: TransientSolver) -> str | None:
    """A note when S-parameters were asked for on a multi-port model but no full matrix can be derived."""
    asked = bool(config.get("calculateSParameters") or config.get("extractSParameters"))
    if not asked or len(solver.ports) < 2 or full_matrix_wanted(config, solver):
        return None
    if solver.waveform.shape == "sinusoidal":
        return "No full S-matrix: a sinusoidal excitation has no broadband spectrum; use a (modulated) Gaussian pulse."
    return (
        "No full S-matrix: port-by-port excitation needs the wave ports as the only sources (no voltage "
        "source between face groups, no volume current)."
    )


def configured_single_drive(solver: TransientSolver) -> str | None:
    """The port the configured excitation drives alone (its run is that port's column), if any."""
    driven = [p.port.port_id for p in solver.ports if p.amplitude != 0]
    return driven[0] if len(driven) == 1 and not solver.gaps and not solver.currents else None


def ports_to_excite(solver: TransientSolver) -> list[str]:
    """Ports that need a run of their own: all but the one the configured run already drives alone."""
    alone = configured_single_drive(solver)
    return [p.port.port_id for p in solver.ports if p.port.port_id != alone]


def s_matrix(
    solver: TransientSolver, runs: dict[str, TransientRun], config: dict[str, Any], notes: list[str]
) -> dict[str, Any] | None:
    """The sweep-shaped `s_parameters` from one run per port (runs[port_id] drove that port alone)."""
    method = str(config.get("sParamMethod") or "wave_port")
    if method not in S_PARAM_METHODS:
        raise InvalidInput(f"sParamMethod must be one of {', '.join(S_PARAM_METHODS)}.")
    freqs, band_notes = response_frequencies(config, solver.waveform.band(BAND_FLOOR))
    notes += band_notes
    if not len(freqs):
        notes.append("No requested frequency lies in the pulse's band; no S-matrix was derived.")
        return None
    ids = [p.port.port_id for p in solver.ports]
    n = len(ids)
    s = np.zeros((len(freqs), n, n), dtype=complex)
    incident: dict[str, np.ndarray] = {}
    for col, pid in enumerate(ids):
        waves = port_waves(solver, runs[pid], freqs, notes)
        incident[pid] = waves[pid][0]
        for row, q in enumerate(ids):
            s[:, row, col] = waves[q][1] / incident[pid]
    z_modal = mode_impedances(solver, freqs)
    renorm = method in RENORMALISING_METHODS
    z_ref = float(config.get("portImpedance") or 50.0)
    out: dict[str, Any] = {
        "method": method,
        "convention": "e^{+jwt} (engineering); S[q][p] is the wave leaving port q when port p is driven",
        "port_ids": ids,
        "normalization": f"renormalized to {z_ref:g} ohm" if renorm else "modal (each port's mode, 1 W)",
        "reference_impedance_ohm": z_ref if renorm else None,
        "frequencies": [float(f) for f in freqs],
    }
    if renorm:
        z_line = _power_voltage_impedances(solver, runs, freqs, incident, s, method)
        s = np.array([renormalise(s[k], z_line[k], np.full(n, z_ref)) for k in range(len(freqs))])
        out["line_impedances_ohm"] = [
            [{"z_pv_ohm": float(z), "z_vi_ohm": None} for z in row] for row in z_line
        ]
    out.update(
        matrix=[[[[float(v.real), float(v.imag)] for v in row] for row in sk] for sk in s],
        port_impedances=[z_ref] * n if renorm else [float(z.real) for z in z_modal[len(freqs) // 2]],
        mode_impedances_ohm=[[_pair(z) for z in row] for row in z_modal],
        source="time domain: one pulse per wave port, the others matched loads (port-by-port excitation)",
        excitations=n,
    )
    if runs[ids[0]].scheme == "newmark":
        out["frequency_warping"] = (
            "Newmark (trapezoidal rule) at f behaves like the frequency-domain model at "
            "tan(pi f dt)/(pi dt); relative phase error about (2 pi f dt)^2/12"
        )
    mismatch = [
        {"port_id": p.port.port_id, "max_reflection": max(p.reflection_at(f) for f in freqs)}
        for p in solver.ports
        if p.matched_frequency is not None
    ]
    if mismatch:
        out["port_mismatch"] = mismatch
    return out


def _power_voltage_impedances(
    solver: TransientSolver,
    runs: dict[str, TransientRun],
    freqs: np.ndarray,
    incident: dict[str, np.ndarray],
    s: np.ndarray,
    method: str,
) -> np.ndarray:
    """(frequencies, ports) Z_PV = |V_inc|²/2P, as the frequency-domain sweep computes it: from the port
    voltage of the discrete field when that port is driven, V_inc = V/(1 + S_pp), per √W incident.
    The time-domain path uses it for voltage_current too (a pulse run does not integrate the line current
    per frequency); on a TEM line both are the line impedance."""
    z = np.zeros((len(freqs), len(solver.ports)))
    for k, p in enumerate(solver.ports):
        pid = p.port.port_id
        if pid not in runs[pid].port_voltage:
            raise InvalidInput(
                f"sParamMethod '{method}' needs a port voltage path; a port's cross-section has none "
                "(use wave_port for this port shape)."
            )
        v = dtft(runs[pid].times, runs[pid].port_voltage[pid], freqs)
        z[:, k] = np.abs(v / (incident[pid] * (1 + s[:, k, k]))) ** 2 / 2
    return z


def _pair(z: complex) -> float | list[float]:
    z = complex(z)
    return z.real if abs(z.imag) < 1e-12 * max(1.0, abs(z.real)) else [z.real, z.imag]
