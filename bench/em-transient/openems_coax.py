"""openEMS (EC-FDTD, Debian `python3-openems`) on the bench's coax pulse problem.

Run with Debian's python3:  /usr/bin/python3 openems_coax.py CELLS_PER_MM WORKDIR [TIME_STEP_S] [--warm]
(`--warm`: a short run on another grid in the same process first, `warm_up`.)
Air-filled line with RG-401 radii (a = 0.819 mm, b = 2.731 mm): a Mur absorbing boundary at z = 0, a soft
E-field source with the TEM weight ρ̂/ρ at z = Z_EXC, a voltage probe (radial line integral) at
z = Z_PROBE and a PEC short at z = Z_PROBE + L. openEMS's Gaussian exp(−((t − t0)/τ)²) with
τ = 3/(2π·fc), fc = 12 GHz: τ = 39.8 ps, as on the FEM side.
Cylindrical coordinates: the conductors are the grid's r boundaries (exact geometry, openEMS's natural
set-up for a coax; the TEM mode is uniform in φ, 8 cells around). Cells per mm set r and z.
The run covers the same physical time as the FEM run (the echo plus 6τ). openEMS takes a number of steps,
not an end time, so the run needs its time step: without TIME_STEP_S a set-up-only pass reads it from
openEMS's log (two set-ups, as this bench has always timed openEMS); with it (openEMS's own step, from a
first run) the step is given and openEMS sets up once, what a user who knows the step would run.
Prints one JSON line: the delay of the inverted echo at the probe (cross-correlation with the incident
pulse), cells, steps, seconds.
"""

import json
import math
import os
import re
import resource
import sys
import tempfile
import time

import numpy as np

# Debian's 2019 openEMS Python code still uses the removed numpy aliases np.float/np.int/np.complex.
for _alias, _type in (("float", float), ("int", int), ("complex", complex)):
    if not hasattr(np, _alias):
        setattr(np, _alias, _type)

from CSXCAD import ContinuousStructure
from openEMS import openEMS

C0 = 299_792_458.0
A_MM = 0.5 * 0.0645 * 25.4
B_MM = 0.5 * 0.215 * 25.4
L_MM = 40.0
Z_EXC = 2.0
Z_PROBE = 10.0  # far enough from the source for its non-TEM near field to have died out
FC = 12e9
ALPHA_CELLS = 8
THREADS = int(os.environ.get("OPENEMS_THREADS", "1"))


def echo_delay(t, reference, signal, upsample=32):
    n = len(t)
    dt = t[1] - t[0]
    size = 1 << math.ceil(math.log2(2 * n))
    corr = np.fft.irfft(
        np.fft.rfft(signal, size) * np.conj(np.fft.rfft(reference, size)),
        size * upsample,
    )
    lags = np.arange(size * upsample)
    lags = np.where(lags < size * upsample // 2, lags, lags - size * upsample)
    i = int(np.argmax(np.abs(corr)))
    y0, y1, y2 = corr[i - 1], corr[i], corr[(i + 1) % len(corr)]
    shift = 0.5 * (y0 - y2) / (y0 - 2 * y1 + y2)
    return (lags[i] + shift) * dt / upsample, float(np.sign(y1))


def build(cells_per_mm: float, steps: int, dt: float | None = None):
    d = 1.0 / cells_per_mm
    z_end = Z_PROBE + L_MM
    fdtd = openEMS(NrTS=steps, EndCriteria=0, CoordSystem=1)
    if dt is not None:
        fdtd.SetTimeStep(dt)
    # r_min / r_max: the inner and outer conductor; alpha: closed; z_min: Mur; z_max: the short
    fdtd.SetBoundaryCond(["PEC", "PEC", "PEC", "PEC", "MUR", "PEC"])
    fdtd.SetGaussExcite(0.0, FC)
    csx = ContinuousStructure(CoordSystem=1)
    fdtd.SetCSX(csx)
    grid = csx.GetGrid()
    grid.SetDeltaUnit(1e-3)
    n_r = max(3, round((B_MM - A_MM) * cells_per_mm))
    n_z = round(z_end / d)
    grid.SetLines("r", np.linspace(A_MM, B_MM, n_r + 1))
    grid.SetLines("a", np.linspace(0, 2 * math.pi, ALPHA_CELLS + 1))
    grid.SetLines("z", np.linspace(0, z_end, n_z + 1))
    exc = csx.AddExcitation("excite", exc_type=0, exc_val=[1, 0, 0])
    exc.SetWeightFunction(["1/rho", "0", "0"])
    exc.AddBox([A_MM, 0, Z_EXC], [B_MM, 2 * math.pi, Z_EXC])
    probe = csx.AddProbe("ut", p_type=0)
    probe.AddBox([A_MM, 0, Z_PROBE], [B_MM, 0, Z_PROBE])
    return fdtd, n_r * ALPHA_CELLS * n_z


def time_step(cells_per_mm: float, work: str) -> float:
    """openEMS's own time step for this grid (it prints it during setup; captured at the fd level)."""
    fdtd, _ = build(cells_per_mm, 100_000)
    here = os.getcwd()
    with tempfile.TemporaryFile("w+") as log:
        saved = os.dup(1)
        os.dup2(log.fileno(), 1)
        try:
            fdtd.Run(work, cleanup=True, verbose=1, setup_only=True)
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
            os.chdir(here)  # Run() changes into the simulation directory
        log.seek(0)
        match = re.search(r"FDTD timestep is: ([0-9.eE+-]+) s", log.read())
    if not match:
        raise RuntimeError("openEMS did not report its time step")
    return float(match.group(1))


def cpu() -> float:
    """CPU seconds of this process and its finished children (openEMS runs as one)."""
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run(cells_per_mm: float, work: str, given_dt: float | None = None) -> dict:
    tau = 3 / (2 * math.pi * FC)
    t0 = 9 / (2 * math.pi * FC)
    t_inc = t0 + (Z_PROBE - Z_EXC) * 1e-3 / C0
    exact = 2 * L_MM * 1e-3 / C0
    t_end = t_inc + exact + 6 * tau
    os.makedirs(work, exist_ok=True)
    started, cpu0 = time.perf_counter(), cpu()
    dt = time_step(cells_per_mm, work) if given_dt is None else given_dt
    steps = math.ceil(t_end / dt)
    fdtd, cells = build(cells_per_mm, steps, given_dt)
    stepping = time.perf_counter()
    fdtd.Run(work, cleanup=True, verbose=0, numThreads=THREADS)
    done, cpu1 = time.perf_counter(), cpu()
    data = np.loadtxt(os.path.join(work, "ut"), comments="%")
    t, u = data[:, 0], data[:, 1]
    split = t < t_inc + 0.5 * exact
    delay, sign = echo_delay(t, np.where(split, u, 0.0), np.where(split, 0.0, u))
    return {
        "solver": "openEMS (cylindrical FDTD)",
        "cells_per_mm": cells_per_mm,
        "cells": int(cells),
        "steps": steps,
        "dt": dt,
        "seconds": done - started,
        "seconds_run": done - stepping,
        "cpu_seconds": cpu1 - cpu0,
        "cell_steps_per_s": cells * steps / (done - stepping),
        "delay_s": float(delay),
        "delay_error": float((delay - exact) / exact),
        "echo_sign": sign,
        "threads": THREADS,
        "time_step_given": given_dt is not None,
    }


def warm_up(work: str) -> None:
    """A short run on another grid in this process first (0.5 cells/mm, 20 steps), so openEMS's code is paged
    in and its first-use costs are paid before the timed run: the counterpart of Fieldline's standby
    process (`--warm`)."""
    fdtd, _ = build(0.5, 20)
    here = os.getcwd()
    os.makedirs(os.path.join(work, "warm-up"), exist_ok=True)
    try:
        fdtd.Run(
            os.path.join(work, "warm-up"), cleanup=True, verbose=0, numThreads=THREADS
        )
    finally:
        os.chdir(here)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--warm"]
    if "--warm" in sys.argv:
        warm_up(args[1])
    given = float(args[2]) if len(args) > 2 else None
    print(json.dumps(run(float(args[0]), args[1], given)))
