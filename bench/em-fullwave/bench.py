"""bench/em-fullwave: time to reach 1 % error in ∠S21 on WR-90 (100 mm, 10 GHz), Fieldline vs openEMS.

Both solve the same problem in the same run: an empty WR-90 guide (22.86 × 10.16 mm, air), TE10 ports
with reference planes exactly 100 mm apart; exact ∠S21 = −βL = −906.64° (β = 158.238 rad/m, e^{+jωt},
both codes). Error = |∠S21 − (−βL)| unwrapped, relative to βL. Each code walks a refinement ladder from
coarse to fine; its time-to-1 % is the wall time of the first rung whose error is ≤ 1 % (Fieldline:
meshing + assembly + factorization + solve at 10 GHz; openEMS: its broadband FDTD run + port
post-processing). Fieldline runs in .venv; openEMS through Debian's python3 (`apt-get install openems
python3-openems`). Usage: .venv/bin/python bench/em-fullwave/bench.py [--quick]
"""

import cmath
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "engine"))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

C0 = 299_792_458.0
A, L, F = 22.86e-3, 0.1, 10e9
BETA = math.sqrt((2 * math.pi * F / C0) ** 2 - (math.pi / A) ** 2)
EXACT_DEG = -math.degrees(BETA * L)

FIELDLINE_LADDER = [
    (1, 0.012),
    (1, 0.008),
    (2, 0.012),
    (2, 0.010),
    (3, 0.012),
    (2, 0.006),
    (3, 0.008),
]
OPENEMS_LADDER = [6, 8, 10, 12, 15, 20]


def phase_error(s21: complex) -> float:
    """Relative error of the unwrapped phase (the wrapped difference is well below 180°)."""
    diff = (math.degrees(cmath.phase(s21)) - EXACT_DEG + 180) % 360 - 180
    return abs(diff) / abs(EXACT_DEG)


def fieldline_rung(order: int, maxh: float) -> dict:
    from fieldline_engine.em.fullwave.media import uniform_media
    from fieldline_engine.em.fullwave.solver import FullwaveSolver
    from fieldline_engine.em.ports.wave_port import build_wave_port
    from fieldline_engine.testing.rf_meshes import waveguide_mesh

    t0 = time.perf_counter()
    mesh = waveguide_mesh(L, maxh=maxh)
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TE10") for k in range(2)]
    solver = FullwaveSolver(mesh, uniform_media(), order, "default", ports)
    s21 = complex(solver.solve(F, keep_fields=False).s[1, 0])
    seconds = time.perf_counter() - t0
    return {
        "order": order,
        "maxh_mm": maxh * 1e3,
        "unknowns": solver.ndof,
        "seconds": seconds,
        "error": phase_error(s21),
    }


def openems_rung(cells: float, work: Path) -> dict | None:
    py = shutil.which("python3", path="/usr/bin")
    try:
        out = subprocess.run(
            [
                py or "/usr/bin/python3",
                str(HERE / "openems_wr90.py"),
                str(cells),
                str(work),
            ],
            check=False,
            capture_output=True,
            text=True,
            timeout=900,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"openEMS rung {cells} failed: {exc}", file=sys.stderr)
        return None
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
    if out.returncode != 0 or not lines:
        print(f"openEMS rung {cells} failed:\n{out.stderr[-1500:]}", file=sys.stderr)
        return None
    r = json.loads(lines[-1])
    r["error"] = phase_error(complex(r["s21_re"], r["s21_im"]))
    return r


def time_to_target(rungs: list[dict], target: float = 0.01) -> float | None:
    for r in rungs:
        if r["error"] <= target:
            return r["seconds"]
    return None


def main() -> int:
    quick = "--quick" in sys.argv
    fl = []
    for order, maxh in FIELDLINE_LADDER:
        r = fieldline_rung(order, maxh)
        fl.append(r)
        print(
            f"Fieldline p={order} h={maxh * 1e3:.0f} mm: {r['unknowns']} unknowns, {r['seconds']:.2f} s, ∠S21 error {r['error']:.3%}"
        )
        if quick and r["error"] <= 0.01:
            break
    oe = []
    work = Path(tempfile.mkdtemp(prefix="fieldline-openems-"))
    for cells in OPENEMS_LADDER:
        r = openems_rung(cells, work / f"n{cells}")
        if r is None:
            break
        oe.append(r)
        print(
            f"openEMS {cells} cells/λ: {r['cells']} cells, {r['seconds']:.2f} s, ∠S21 error {r['error']:.3%}"
        )
        if quick and r["error"] <= 0.01:
            break
    shutil.rmtree(work, ignore_errors=True)
    t_fl, t_oe = time_to_target(fl), time_to_target(oe)
    summary = {
        "problem": "WR-90, 100 mm, 10 GHz, ∠S21 within 1 % of −βL",
        "exact_phase_deg": EXACT_DEG,
        "fieldline": fl,
        "openems": oe,
        "fieldline_seconds_to_1pct": t_fl,
        "openems_seconds_to_1pct": t_oe,
        "ratio_fieldline_over_openems": (t_fl / t_oe) if (t_fl and t_oe) else None,
        "cpu": os.cpu_count(),
    }
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    (out / "results.json").write_text(json.dumps(summary, indent=2))
    print(
        json.dumps(
            {
                k: summary[k]
                for k in (
                    "fieldline_seconds_to_1pct",
                    "openems_seconds_to_1pct",
                    "ratio_fieldline_over_openems",
                )
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
