"""Simply supported square plate: modal frequencies against plate theory (issue 18's plate case).

A square steel plate a × a × h, its four side faces held at u_z = 0 and at zero tangential displacement (the
"hard" simple support: the edge may rotate about itself, and nothing else moves at the edge). With u_z = 0
alone (the "soft" support) the 3D plate lands more than 0.7 % below Kirchhoff (−0.75 % at 30 × 30 cells,
an upper bound): the soft edge has a boundary layer the plate theories do not model.
Kirchhoff: f_mn = (π / 2) ((m/a)² + (n/a)²) √(D / (ρ h)), D = E h³ / 12 (1 − ν²); at a/h = 50 transverse
shear and rotary inertia lower it by 0.15 % (mode 1,1) to 0.6 % (2,2), so the reference is Mindlin's plate
(exact Navier solution for the hard simple support). Finite elements with a consistent mass converge from
above. Usage:

    .venv/bin/python bench/vibration/plate.py [cells per side ...]   (default 10 20 30)
"""

import json
import math
import sys
import time
from pathlib import Path

from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane
from fieldline_engine.vibration.analysis import ModalAnalysis

E, NU, RHO = 200e9, 0.3, 7850.0
A, H = 1.0, 0.02


def kirchhoff(m: int, n: int) -> float:
    d = E * H**3 / (12 * (1 - NU**2))
    return math.pi / 2 * ((m / A) ** 2 + (n / A) ** 2) * math.sqrt(d / (RHO * H))


def mindlin(m: int, n: int) -> float:
    """Lower (flexural) root of the Mindlin plate's Navier frequency equation for the hard simple support:
    (κGh k² − ρhω²)(Dk² + κGh − Iω²) = (κGh k)², I = ρh³/12, κ = π²/12 (Mindlin's shear factor)."""
    d = E * H**3 / (12 * (1 - NU**2))
    shear = math.pi**2 / 12 * E / (2 * (1 + NU)) * H
    k2 = math.pi**2 * ((m / A) ** 2 + (n / A) ** 2)
    inertia = RHO * H**3 / 12
    a2, a1, a0 = (
        RHO * H * inertia,
        -(RHO * H * (d * k2 + shear) + inertia * shear * k2),
        shear * d * k2**2,
    )
    omega2 = (-a1 - math.sqrt(a1 * a1 - 4 * a2 * a0)) / (2 * a2)
    return math.sqrt(omega2) / (2 * math.pi)


def run(cells: int, layers: int) -> dict:
    mesh = box_mesh((A, A, H), (cells, cells, layers))
    # x = 0, a faces hold u_y = u_z = 0 and y = 0, a faces u_x = u_z = 0: the "hard" simple support, whose
    # Navier solution is the plate theory's (no edge boundary layer), so the 3D model converges to it
    x_sides = [f for value in (0.0, A) for f in faces_on_plane(mesh, 0, value)]
    y_sides = [f for value in (0.0, A) for f in faces_on_plane(mesh, 1, value)]
    started = time.process_time()
    sol = ModalAnalysis().solve(
        model_from_mesh_data(mesh),
        {
            "analysisType": "modal",
            "meshOrder": 2,
            "youngsModulus": E,
            "poissonRatio": NU,
            "density": RHO,
            "modalNumModes": 4,
            "displacementConditions": [
                {"faces": x_sides, "displacement": [None, 0.0, 0.0]},
                {"faces": y_sides, "displacement": [0.0, None, 0.0]},
            ],
        },
        SILENT,
    )
    cpu = time.process_time() - started
    modes = sol.extras["modes"]
    elastic = [m["frequency"] for m in modes if not m["rigid_body"]]
    # (1,1), then the (1,2)/(2,1) pair, then (2,2)
    pairs = [(1, 1), (1, 2), (2, 1), (2, 2)]
    reference = [mindlin(m, n) for m, n in pairs]
    errors = [f / r - 1 for f, r in zip(elastic, reference, strict=False)]
    return {
        "cells": cells,
        "layers": layers,
        "dofs": sol.solver_info["matrix_size"],
        "rigid_body_modes": sum(1 for m in modes if m["rigid_body"]),
        "frequencies_Hz": elastic,
        "mindlin_Hz": reference,
        "kirchhoff_Hz": [kirchhoff(m, n) for m, n in pairs],
        "errors": errors,
        "cpu_s": round(cpu, 2),
    }


if __name__ == "__main__":
    rows = [run(int(c), 2) for c in (sys.argv[1:] or ["10", "20", "30"])]
    for r in rows:
        errs = ", ".join(f"{e:+.3%}" for e in r["errors"])
        print(
            f"{r['cells']}×{r['cells']}×{r['layers']} cells, {r['dofs']} DOFs, {r['rigid_body_modes']} rigid: "
            f"f = {', '.join(f'{f:.2f}' for f in r['frequencies_Hz'])} Hz, Kirchhoff "
            f"{', '.join(f'{f:.2f}' for f in r['kirchhoff_Hz'])} Hz, Mindlin "
            f"{', '.join(f'{f:.2f}' for f in r['mindlin_Hz'])} Hz, error against Mindlin {errs}, {r['cpu_s']} CPU s"
        )
    Path(__file__).with_name("plate.json").write_text(json.dumps(rows, indent=1) + "\n")
