"""Frequency sweeps: one factorization per point (symbolic analysis reused), every port driven in turn."""

import os
from typing import Any

import numpy as np

from fieldline_engine import protocol
from fieldline_engine.core import ranks
from fieldline_engine.em.fullwave.solver import FrequencySolution, FullwaveSolver
from fieldline_engine.em.fullwave.sparameters import (
    RENORMALISING_METHODS,
    S_PARAM_METHODS,
    line_impedances,
    reference_line_impedance,
    renormalise,
)
from fieldline_engine.errors import InvalidInput

MAX_POINTS = 10001


def sweep_frequencies(config: dict[str, Any]) -> tuple[list[float], float]:
    """The sweep's points and the frequency whose fields are reported."""
    f0 = float(config.get("frequency") or 0.0)
    if not (config.get("calculateSParameters") or config.get("extractSParameters")):
        if f0 <= 0:
            raise InvalidInput("A full-wave analysis needs a frequency above 0 Hz (or an S-parameter sweep).")
        return [f0], f0
    fmin = float(config.get("sParamFreqMin") or 1e9)
    fmax = float(config.get("sParamFreqMax") or 1e10)
    n = int(config.get("sParamNumPoints") or 101)
    if fmin <= 0 or fmax <= 0:
        raise InvalidInput("S-parameter frequencies must be above 0 Hz.")
    if fmax < fmin:
        raise InvalidInput("sParamFreqMax must not be below sParamFreqMin.")
    if n < 1 or n > MAX_POINTS:
        raise InvalidInput(f"sParamNumPoints must be between 1 and {MAX_POINTS}.")
    freqs = [fmin] if n == 1 or fmax == fmin else [float(f) for f in np.linspace(fmin, fmax, n)]
    if f0 <= 0:
        f0 = freqs[len(freqs) // 2]
    return freqs, f0


def sweep_workers(points: int) -> int:
    """Processes that share a sweep: FIELDLINE_SWEEP_WORKERS (default 1, since the job queue already
    runs one engine per core), never more than the points."""
    raw = os.environ.get("FIELDLINE_SWEEP_WORKERS", "").strip()
    wanted = int(raw) if raw.isdigit() else 1
    return max(1, min(wanted, points))


def _point(solver: FullwaveSolver, f: float, renorm: bool, keep: bool):
    sol = solver.solve(f, keep_fields=keep or renorm)
    lines = [port_line_impedances(solver, sol, p) for p in range(len(solver.ports))] if renorm else []
    if not keep:
        sol.excitations.clear()
    return sol, lines


_FORKED: dict[str, Any] = {}


def _forked_points(chunk: list[float]) -> list[tuple[float, np.ndarray, list, list]]:
    """Runs in a forked worker: the solver (matrices, factorization) is the parent's copy-on-write."""
    solver, renorm = _FORKED["solver"], _FORKED["renorm"]
    out = []
    for f in chunk:
        sol, lines = _point(solver, f, renorm, keep=False)
        out.append((f, sol.s, lines, sol.port_props))
    return out


def _parallel_points(solver: FullwaveSolver, freqs: list[float], renorm: bool, workers: int):
    import multiprocessing as mp

    chunks = [freqs[k::workers] for k in range(workers)]
    _FORKED.update(solver=solver, renorm=renorm)
    try:
        with mp.get_context("fork").Pool(workers) as pool:
            results = [r for part in pool.map(_forked_points, chunks) for r in part]
    finally:
        _FORKED.clear()
    return {f: (s, lines, props) for f, s, lines, props in results}


def run_sweep(
    solver: FullwaveSolver, freqs: list[float], field_freq: float, method: str, z_ref: float
) -> tuple[dict[str, Any], FrequencySolution] | None:
    """Every port driven at every point. One factorization per point; the symbolic analysis is kept
    (UMFPACK Update); with FIELDLINE_SWEEP_WORKERS > 1 the points are shared by forked processes, and
    under mpiexec the solves are shared by the ranks (distributed.py; None on ranks other than 0)."""
    if method not in S_PARAM_METHODS:
        raise InvalidInput(f"sParamMethod must be one of {', '.join(S_PARAM_METHODS)}.")
    renorm = method in RENORMALISING_METHODS
    if ranks.size() > 1:
        from fieldline_engine.em.fullwave.distributed import run_distributed_sweep

        shared = run_distributed_sweep(solver, freqs, field_freq, renorm, _point)
        if shared is None:
            return None  # a rank other than 0: its share went to rank 0, which writes the results
        done, field_solution, mpi_info = shared
        out = sweep_output(solver, freqs, done, method, z_ref, workers=mpi_info["ranks"])
        out["mpi"] = mpi_info
        return out, field_solution
    # The field frequency first (its factorization's symbolic analysis then serves every worker).
    field_solution, field_lines = _point(solver, field_freq, renorm, keep=True)
    done: dict[float, tuple[np.ndarray, list, list]] = {
        field_freq: (field_solution.s, field_lines, field_solution.port_props)
    }
    rest = [f for f in freqs if f not in done]
    workers = sweep_workers(len(rest))
    if workers > 1:
        protocol.progress(20, f"Sweeping {len(rest)} points on {workers} processes")
        done.update(_parallel_points(solver, rest, renorm, workers))
    else:
        for i, f in enumerate(rest):
            sol, lines = _point(solver, f, renorm, keep=False)
            done[f] = (sol.s, lines, sol.port_props)
            protocol.progress(15 + 70 * (i + 1) / max(1, len(rest)), f"Frequency {i + 1} of {len(rest)}")

    return sweep_output(solver, freqs, done, method, z_ref, workers), field_solution


def sweep_output(
    solver: FullwaveSolver,
    freqs: list[float],
    done: dict[float, tuple[np.ndarray, list, list]],
    method: str,
    z_ref: float,
    workers: int,
) -> dict[str, Any]:
    """The `s_parameters` results section from each point's (modal S, line impedances, port data)."""
    renorm = method in RENORMALISING_METHODS
    s_list, z_modal, z_line, props = [], [], [], []
    for f in freqs:
        s, lines, port_props = done[f]
        if renorm:
            z_old = np.array([reference_line_impedance(method, z) or np.nan for z in lines])
            if np.any(~np.isfinite(z_old)):
                raise InvalidInput(
                    f"sParamMethod '{method}' needs a port voltage path; a port's cross-section has none "
                    "(use wave_port for this port shape)."
                )
            s = renormalise(s, z_old, np.full(len(z_old), z_ref))
            z_line.append(lines)
        s_list.append(s)
        # a TEM port's impedance is its line's V/I; a hollow guide's, its mode's E_t/H_t
        z_modal.append([p.get("line_impedance_ohm", p["wave_impedance_ohm"]) for p in port_props])
        props.append(port_props)
    out: dict[str, Any] = {
        "method": method,
        "convention": "e^{+jwt} (engineering); S[q][p] is the wave leaving port q when port p is driven",
        "port_ids": [p.port_id for p in solver.ports],
        "normalization": f"renormalized to {z_ref:g} ohm" if renorm else "modal (each port's mode, 1 W)",
        "reference_impedance_ohm": z_ref if renorm else None,
        "frequencies": [float(f) for f in freqs],  # Hz
        # matrix[k][q][p] = [re, im]: frequency k, wave leaving port q with port p driven
        "matrix": [[[[float(v.real), float(v.imag)] for v in row] for row in s] for s in s_list],
        # one reference per port for display: the renormalisation target, or the modal impedances
        # at the middle frequency (a TEM port's line impedance V/I)
        "port_impedances": [z_ref] * len(solver.ports)
        if renorm
        else [_real(z) for z in z_modal[len(z_modal) // 2]],
        "mode_impedances_ohm": z_modal,
        "port_impedance_kinds": [
            "line" if "line_impedance_ohm" in p else "mode" for p in props[len(props) // 2]
        ]
        if props
        else [],
        "port_propagation": props,
        "workers": workers,
    }
    if renorm:
        out["line_impedances_ohm"] = z_line
    return out


def port_line_impedances(solver: FullwaveSolver, sol: FrequencySolution, p: int) -> dict[str, float | None]:
    gf = sol.excitations[p]
    h = solver.magnetic_field(gf, sol.frequency)
    return line_impedances(solver.ports[p], solver.mesh, gf, h, complex(sol.s[p, p]))


def _real(z: float | list[float]) -> float:
    return float(z[0]) if isinstance(z, list) else float(z)
