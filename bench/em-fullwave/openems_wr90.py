"""openEMS (EC-FDTD, Debian `python3-openems`) on the bench's WR-90 problem: S21 of a 100 mm empty guide.

Run with Debian's python3: /usr/bin/python3 openems_wr90.py CELLS_PER_WAVELENGTH WORKDIR
Prints one JSON line: {"cells_per_wavelength", "s21_re", "s21_im", "seconds", "cells"} at 10 GHz.
Ports: TE10 waveguide ports; the measurement planes (each port's `stop`) are exactly L = 100 mm apart.
"""

import json
import os
import sys
import time

import numpy as np

# Debian's 2019 openEMS Python code still uses the removed numpy aliases np.float/np.int/np.complex.
for _alias, _type in (("float", float), ("int", int), ("complex", complex)):
    if not hasattr(np, _alias):
        setattr(np, _alias, _type)

from CSXCAD import ContinuousStructure
from openEMS import openEMS
from openEMS.physical_constants import C0

A, B, L = 22.86, 10.16, 100.0  # mm
F0, F_START, F_STOP = 10e9, 8e9, 12.4e9


def run(cells_per_wavelength: float, work: str) -> dict:
    unit = 1e-3
    res = C0 / F_STOP / unit / cells_per_wavelength  # mm
    feed = max(10 * res, 15.0)  # excitation → measurement plane distance and margins
    length = L + 2 * feed + 2 * 5 * res
    z_exc1, z_meas1 = 5 * res, 5 * res + feed
    z_meas2 = z_meas1 + L
    z_exc2 = z_meas2 + feed
    # −40 dB energy decay ends the run (openEMS tutorials use 1e-4…1e-5); the cap stops slow near-cutoff ringing.
    fdtd = openEMS(NrTS=60000, EndCriteria=1e-4)
    fdtd.SetGaussExcite(0.5 * (F_START + F_STOP), 0.5 * (F_STOP - F_START))
    fdtd.SetBoundaryCond([0, 0, 0, 0, 3, 3])
    csx = ContinuousStructure()
    fdtd.SetCSX(csx)
    mesh = csx.GetGrid()
    mesh.SetDeltaUnit(unit)
    mesh.AddLine("x", [0, A])
    mesh.AddLine("y", [0, B])
    mesh.AddLine("z", [0, z_exc1, z_meas1, z_meas2, z_exc2, length])
    ports = [
        fdtd.AddRectWaveGuidePort(
            0, [0, 0, z_exc1], [A, B, z_meas1], "z", A * unit, B * unit, "TE10", 1
        ),
        fdtd.AddRectWaveGuidePort(
            1, [0, 0, z_exc2], [A, B, z_meas2], "z", A * unit, B * unit, "TE10"
        ),
    ]
    mesh.SmoothMeshLines("all", res, ratio=1.4)
    cells = (
        (len(mesh.GetLines("x")) - 1)
        * (len(mesh.GetLines("y")) - 1)
        * (len(mesh.GetLines("z")) - 1)
    )
    os.makedirs(work, exist_ok=True)
    t0 = time.perf_counter()
    fdtd.Run(work, cleanup=True, verbose=0)
    freq = np.array([F0])
    for p in ports:
        p.CalcPort(work, freq)
    seconds = time.perf_counter() - t0
    s21 = ports[1].uf_ref[0] / ports[0].uf_inc[0]
    return {
        "cells_per_wavelength": cells_per_wavelength,
        "s21_re": float(s21.real),
        "s21_im": float(s21.imag),
        "seconds": seconds,
        "cells": int(cells),
    }


if __name__ == "__main__":
    print(json.dumps(run(float(sys.argv[1]), sys.argv[2])))
