"""openEMS (EC-FDTD, Debian `python3-openems`) on the bench's 3D case: a dielectric sphere in a PEC cube.

Run with Debian's python3:  /usr/bin/python3 openems_sphere.py CELLS WORKDIR
PEC cube of side A = 20 mm, centred dielectric sphere of radius R = 5 mm, εr = 6; a soft z-directed
E-field source on the cell edge at the centre, a Gaussian-modulated pulse (openEMS's SetGaussExcite, f0
and the 20 dB half-bandwidth fc of sphere_case.py); an E-field probe at PROBE_MM. Uniform Cartesian grid
of CELLS cells per side: the sphere is staircased, its permittivity averaged onto the cell edges
(openEMS's EC-FDTD material model). The run covers sphere_case.END_TIME. Prints one JSON line: the probe's
time signal (the bench finds the ringing frequency with the same estimator as for the FEM), cells,
steps, seconds (wall and CPU).
"""

import json
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sphere_case import A_MM, END_TIME, EPS_R, F0, FC, PROBE_MM, R_MM

THREADS = int(os.environ.get("OPENEMS_THREADS", "1"))


def build(cells: int, steps: int, dt: float | None = None):
    fdtd = openEMS(NrTS=steps, EndCriteria=0)
    if (
        dt is not None
    ):  # its own step from an earlier run: one set-up instead of two (openems_coax.py)
        fdtd.SetTimeStep(dt)
    fdtd.SetBoundaryCond(["PEC"] * 6)
    fdtd.SetGaussExcite(F0, FC)
    csx = ContinuousStructure()
    fdtd.SetCSX(csx)
    grid = csx.GetGrid()
    grid.SetDeltaUnit(1e-3)
    lines = np.linspace(-A_MM / 2, A_MM / 2, cells + 1)
    for axis in "xyz":
        grid.SetLines(axis, lines)
    diel = csx.AddMaterial("diel", epsilon=EPS_R)
    diel.AddSphere(center=[0, 0, 0], radius=R_MM, priority=10)
    # the source: the z-directed cell edge(s) nearest the centre
    d = A_MM / cells
    exc = csx.AddExcitation("excite", exc_type=1, exc_val=[0, 0, 1])
    exc.AddBox(
        [-0.01 * d, -0.01 * d, -0.5 * d], [0.01 * d, 0.01 * d, 0.5 * d], priority=20
    )
    probe = csx.AddProbe("et", p_type=2)
    probe.AddBox(PROBE_MM, PROBE_MM)
    return fdtd, cells**3


def time_step(cells: int, work: str) -> float:
    """openEMS's own time step for this grid (printed during setup; captured at the fd level)."""
    fdtd, _ = build(cells, 100_000)
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
            os.chdir(here)
        log.seek(0)
        match = re.search(r"FDTD timestep is: ([0-9.eE+-]+) s", log.read())
    if not match:
        raise RuntimeError("openEMS did not report its time step")
    return float(match.group(1))


def cpu() -> float:
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run(cells: int, work: str, given_dt: float | None = None) -> dict:
    os.makedirs(work, exist_ok=True)
    started, cpu0 = time.perf_counter(), cpu()
    dt = time_step(cells, work) if given_dt is None else given_dt
    steps = int(np.ceil(END_TIME / dt))
    fdtd, n_cells = build(cells, steps, given_dt)
    stepping, cpu1 = time.perf_counter(), cpu()
    fdtd.Run(work, cleanup=True, verbose=0, numThreads=THREADS)
    done, cpu2 = time.perf_counter(), cpu()
    data = np.loadtxt(os.path.join(work, "et"), comments="%")
    return {
        "solver": "openEMS (Cartesian EC-FDTD)",
        "cells_per_side": cells,
        "cells": int(n_cells),
        "steps": steps,
        "dt": dt,
        "seconds": done - started,
        "seconds_run": done - stepping,
        "cpu_seconds": cpu2 - cpu0,
        "cpu_seconds_run": cpu2 - cpu1,
        "threads": THREADS,
        "time_step_given": given_dt is not None,
        "t": data[:, 0].tolist(),
        "ez": data[:, 3].tolist(),
    }


if __name__ == "__main__":
    given = float(sys.argv[3]) if len(sys.argv) > 3 else None
    print(json.dumps(run(int(sys.argv[1]), sys.argv[2], given)))
