"""bench/em-transient: the coax pulse echo, Fieldline's time-domain FEM against openEMS, same run.

Problem (both codes): air-filled coax with RG-401 radii (a = 0.819 mm, b = 2.731 mm), L = 40 mm from the
measurement plane to a short; Gaussian pulse exp(−((t − t0)/τ)²), τ = 3/(2π·12 GHz) = 39.8 ps; the echo
comes back inverted after 2L/c = 0.266851 ns. Error = (measured − exact)/exact of the echo delay: for
openEMS by cross-correlating the echo with the incident pulse at the measurement plane; for Fieldline as
the group delay of the echo's spectral ratio with Newmark's exact frequency warping undone
(warping.echo_group_delay: the time step's dispersion leaves the reading, the mesh's stays), its
cross-correlation printed beside it.

- Fieldline: netgen mesh of the coax (curved to the element order) + setup (assembly, port, one sparse
  Cholesky factorization) + Newmark time stepping (`em/transient`, the code the API runs); TEM wave
  port at z = 0, the echo read from the port voltage. Ladder over element order, mesh size and Δt.
- openEMS 0.0.35 (Debian `openems`, `python3-openems`): cylindrical-coordinate FDTD (openems_coax.py),
  ladder over cells per mm; it runs for the same physical time.

Both single-threaded (OPENBLAS_NUM_THREADS=1, OPENEMS_THREADS=1; the FEM steps in numpy/scipy on one
factor: NGSolve's sparsecholesky, or CHOLMOD for long runs on large meshes, em/transient/factor.py).
Also measured: the two-port S-matrix's stepping, the two excitations one after the other against both as
columns of one time loop (`also_drive`, one block substitution a step).
The coax also runs as a wedge by its rotational symmetry (coax_wedge.py: the radial side faces PMC, as
openEMS's cylindrical (r, z) grid uses the same symmetry), each rung in a fresh process; the full 3D
line's rungs stay as a second row.
Run: `.venv/bin/python bench/em-transient/bench.py [sphere] [coax]` (both without arguments).
Results: bench/em-transient/out/results.json and a table on stdout.
"""

import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "engine"))
sys.path.insert(0, str(HERE))

import sphere_case
import sphere_fieldline
from fieldline_engine.em.constants import C0
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.em.transient.solver import TransientSolver
from fieldline_engine.em.transient.spectrum import echo_delay
from fieldline_engine.em.transient.warping import echo_group_delay
from fieldline_engine.em.transient.waveforms import Waveform
from fieldline_engine.testing.rf_meshes import coax_mesh

L = 0.04
TAU = 3 / (2 * math.pi * 12e9)
EXACT = 2 * L / C0
TARGETS = (0.01, 0.001)
F_FIT = 12e9  # the echo's group delay is fitted up to here (coax_wedge.py)

# (order, maxh m, curvature safety, Δt s); the first and the last are the two mesh sizes whose
# steps/s and DOF-steps/s are reported.
FEM_LADDER = [
    (2, 0.006, 1.0, 20e-12),
    (2, 0.006, 1.0, 8e-12),
    (2, 0.006, 1.0, 4e-12),
    (1, 0.0025, 1.0, 4e-12),
    (3, 0.008, 1.0, 4e-12),
    (2, 0.003, 1.5, 2e-12),
]
OPENEMS_LADDER = [0.5, 1.0, 2.0, 4.0]
# The coax by its symmetry (coax_wedge.py): ("netgen", order, wedge angle °, maxh mm, netgen curvature
# safety, Δt ps) — 30° and curvature safety 0.3 give netgen's coarsest valid wedge (≈ 90 tets, 1–2 across
# the gap) — or ("structured", order, angle °, cells across the gap, cells along the line, Δt ps): straight
# tets on a (ρ, φ, z) grid read through the uploaded-mesh path. Every rung's delay is the echo's group
# delay with Newmark's warping undone; the cross-correlation's is printed beside it.
WEDGE_LADDER = [
    ("netgen", 2, 30, 20, 0.3, 8),
    ("netgen", 3, 30, 20, 0.3, 2.5),
    ("structured", 2, 30, 1, 4, 20),
    ("structured", 2, 30, 1, 5, 20),
    ("structured", 2, 30, 1, 6, 20),
    ("structured", 2, 30, 1, 8, 20),
    ("structured", 2, 30, 2, 6, 20),
    ("structured", 3, 30, 1, 2, 20),
    ("structured", 3, 30, 1, 3, 20),
    ("structured", 3, 30, 1, 4, 20),
]
# The cheapest rung of each code at a target is re-run this many times, alternating (Fieldline, openEMS
# with a set-up pass, openEMS with its step given), each a fresh process: the ratio is the median of
# the per-round ratios, so a load change on the shared machine hits both sides of a pair alike.
PAIRED_ROUNDS = 7

# The 3D case (sphere_case.py): (order, maxh mm, Δt s or None for 0.95 of the explicit limit, scheme,
# netgen curvature safety or None for its default 2[, netgen optimization passes, default 3]). Fieldline's
# frequencies are corrected for the scheme's exact warping (as the engine's `resonances` report them), so
# Newmark runs at 25 ps (5 steps a period of the ringing): its time error is gone, the mesh's is left.
SPHERE_FEM_LADDER = [
    (2, 6.0, 5e-12, "newmark", None),
    (2, 6.0, 5e-12, "newmark", 1.0, 1),
    (2, 6.0, 25e-12, "newmark", 1.0, 1),
    (2, 8.0, 25e-12, "newmark", 1.0, 0),
    (2, 8.0, 25e-12, "newmark", 1.5, 0),
    (3, 20.0, 25e-12, "newmark", 0.5, 0),
    (2, 8.0, None, "explicit", 1.0, 0),
]
# even counts only: the source edge sits on the grid line through the centre
SPHERE_OPENEMS_LADDER = [10, 16, 20, 24, 30, 40]


def fem_run(order: int, maxh: float, safety: float, dt: float) -> dict:
    started, cpu0 = time.perf_counter(), time.process_time()
    mesh = coax_mesh(
        L,
        maxh=maxh,
        curve_order=order if order > 1 else 0,
        curvature_safety=safety,
        end_labels=("port_0", "default"),
        parallel_meshing=False,  # single-threaded, like the sphere rungs (sphere_fieldline.py)
    )
    port = build_wave_port(mesh, "port_0", "1", "TEM", 1.0)
    wf = Waveform("gaussian", TAU, 5 * TAU, 0.0)
    solver = TransientSolver(
        mesh, uniform_media(1.0), order, "default", wf, ports=[port]
    )
    steps = math.ceil((wf.delay + EXACT + 6 * TAU) / dt)
    run = solver.run("newmark", dt, steps, energy_stride=steps)
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu0
    v = run.port_voltage["1"]
    v_inc = run.port_incident["1"] * solver.ports[0].mode_voltage
    echo = echo_group_delay(run.times, v_inc, v - v_inc, "newmark", F_FIT)
    correlated = echo_delay(run.times, v_inc, v - v_inc)
    return {
        "solver": "Fieldline (FEM, Newmark)",
        "rung": f"p={order}, h={maxh * 1e3:g} mm, Δt={dt * 1e12:g} ps",
        "unknowns": solver.ndof,
        "steps": steps,
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "seconds_stepping": run.seconds_stepping,
        "steps_per_s": steps / run.seconds_stepping,
        "dof_steps_per_s": steps * solver.ndof / run.seconds_stepping,
        "delay_error": (echo.delay - EXACT) / EXACT,
        "delay_error_cross_correlation": (correlated.delay - EXACT) / EXACT,
        "echo_gain": echo.gain,
    }


def wedge_run(
    kind: str,
    order: int,
    angle: float,
    a: float,
    b: float,
    dt_ps: float,
    standby: bool = False,
) -> dict:
    """One wedge rung in a fresh interpreter (first-use costs count, imports do not: as openEMS's rungs);
    `standby`: after the engine's generic warm-up, as a job on a standby engine process runs."""
    proc = subprocess.run(
        [sys.executable, str(HERE / "coax_wedge.py"), kind]
        + [str(x) for x in (order, angle, a, b, dt_ps)]
        + (["--standby"] if standby else []),
        capture_output=True,
        text=True,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
        timeout=1800,
        check=True,
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def smatrix_stepping(
    order: int = 2, maxh: float = 0.006, dt: float = 4e-12, steps: int = 177
) -> dict:
    """A matched two-port coax (L = 40 mm): the S-matrix's two excitations stepped one by one
    (`drive_port`) against together (`also_drive`); same records to rounding."""
    mesh = coax_mesh(L, maxh=maxh, curve_order=order, curvature_safety=1.0)
    ports = [
        build_wave_port(mesh, f"port_{k}", str(k + 1), "TEM", 1.0) for k in range(2)
    ]
    solver = TransientSolver(
        mesh,
        uniform_media(1.0),
        order,
        "default",
        Waveform("gaussian", TAU, 5 * TAU, 0.0),
        ports=ports,
    )
    one = [
        solver.run(
            "newmark",
            dt,
            steps,
            energy_stride=steps,
            record_currents=False,
            drive_port=pid,
        )
        for pid in ("1", "2")
    ]
    both = solver.run(
        "newmark",
        dt,
        steps,
        energy_stride=steps,
        record_currents=False,
        drive_port="1",
        also_drive=["2"],
    )
    diff = max(
        float(abs(a.port_modal[q] - b.port_modal[q]).max() / abs(b.port_modal[q]).max())
        for a, b in ((both, one[0]), (both.port_drive_runs["2"], one[1]))
        for q in ("1", "2")
    )
    return {
        "unknowns": solver.ndof,
        "steps": steps,
        "one_by_one_stepping_s": sum(r.seconds_stepping for r in one),
        "block_stepping_s": both.seconds_stepping,
        "max_relative_difference": diff,
    }


def openems_run(
    cells_per_mm: float, given_dt: float | None = None, warm: bool = False
) -> dict:
    """One openEMS rung in a fresh interpreter; `given_dt`: its own time step from an earlier run, so it
    sets up once instead of twice; `warm`: after a short run on another grid (openems_coax.py)."""
    work = HERE / "out" / f"openems_{cells_per_mm:g}"
    env = {**os.environ, "OPENEMS_THREADS": "1"}
    proc = subprocess.run(
        [
            "/usr/bin/python3",
            str(HERE / "openems_coax.py"),
            str(cells_per_mm),
            str(work),
        ]
        + ([repr(given_dt)] if given_dt is not None else [])
        + (["--warm"] if warm else []),
        capture_output=True,
        text=True,
        env=env,
        timeout=1800,
        check=True,
    )
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    r["rung"] = f"{cells_per_mm:g} cells/mm" + (
        ", step given" if given_dt is not None else ""
    )
    if given_dt is not None:
        r["solver"] = "openEMS, time step given"
    r["unknowns"] = r["cells"]
    return r


def paired_rounds(fem: dict, oems: dict, oems_given: dict) -> dict:
    """Re-runs the cheapest rungs alternately, PAIRED_ROUNDS times; medians of the per-round ratios.

    Besides the cold rows (each in a fresh interpreter), the rung as a job runs it on a standby engine
    process (after the engine's generic warm-up) against openEMS given its step after a warm-up run of its
    own in the same process: both codes warm, neither on the timed model."""
    fem_rung = fem["rung_args"]
    rounds = []
    for _ in range(PAIRED_ROUNDS):
        a = wedge_run(*fem_rung)
        b = openems_run(oems["cells_per_mm"])
        c = openems_run(oems_given["cells_per_mm"], oems_given["dt"])
        d = wedge_run(*fem_rung, standby=True)
        e = openems_run(oems_given["cells_per_mm"], oems_given["dt"], warm=True)
        rounds.append((a, b, c, d, e))
    out: dict = {"rounds": PAIRED_ROUNDS}
    for clock in ("seconds", "cpu_seconds"):
        out[clock] = {
            "fieldline": [r[0][clock] for r in rounds],
            "openems": [r[1][clock] for r in rounds],
            "openems_step_given": [r[2][clock] for r in rounds],
            "fieldline_standby": [r[3][clock] for r in rounds],
            "openems_step_given_warm": [r[4][clock] for r in rounds],
            "ratio_median": statistics.median(
                r[0][clock] / r[1][clock] for r in rounds
            ),
            "ratio_step_given_median": statistics.median(
                r[0][clock] / r[2][clock] for r in rounds
            ),
            "ratio_standby_to_step_given_median": statistics.median(
                r[3][clock] / r[2][clock] for r in rounds
            ),
            "ratio_both_warm_median": statistics.median(
                r[3][clock] / r[4][clock] for r in rounds
            ),
        }
    return out


def time_to(
    results: list[dict],
    target: float,
    error: str = "delay_error",
    clock: str = "seconds",
) -> dict | None:
    """The cheapest rung (by `clock`: wall `seconds` or `cpu_seconds`) within `target` error."""
    ok = [r for r in results if abs(r[error]) <= target]
    return min(ok, key=lambda r: r[clock]) if ok else None


def openems_sphere_run(cells: int, given_dt: float | None = None) -> dict:
    work = HERE / "out" / f"openems_sphere_{cells}"
    env = {**os.environ, "OPENEMS_THREADS": "1"}
    proc = subprocess.run(
        ["/usr/bin/python3", str(HERE / "openems_sphere.py"), str(cells), str(work)]
        + ([repr(given_dt)] if given_dt is not None else []),
        capture_output=True,
        text=True,
        env=env,
        timeout=3600,
        check=True,
    )
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    t, ez = r.pop("t"), r.pop("ez")
    r["frequency_hz"] = sphere_case.ringing_frequency(t, ez)
    r["frequency_error"] = (
        r["frequency_hz"] - sphere_case.REFERENCE_HZ
    ) / sphere_case.REFERENCE_HZ
    r["rung"] = f"{cells}³ cells ({sphere_case.A_MM / cells:.2g} mm)" + (
        ", step given" if given_dt is not None else ""
    )
    if given_dt is not None:
        r["solver"] = "openEMS, time step given"
    r["unknowns"] = r["cells"]
    return r


def start_up() -> dict:
    """Wall and CPU seconds of a fresh interpreter importing each code's Python stack (a job pays this
    once per process; the rung timings above exclude it for both codes)."""
    out = {}
    for name, python, code in (
        (
            "fieldline",
            sys.executable,
            "import ngsolve, netgen.occ, fieldline_engine.em.transient.solver",
        ),
        ("openems", "/usr/bin/python3", "import numpy, CSXCAD, openEMS"),
    ):
        before = os.times()
        started = time.perf_counter()
        subprocess.run([python, "-c", code], check=True, cwd=HERE.parents[1] / "engine")
        wall = time.perf_counter() - started
        after = os.times()
        out[name] = {
            "seconds": wall,
            "cpu_seconds": (after.children_user - before.children_user)
            + (after.children_system - before.children_system),
        }
    return out


def report_time_to(
    case: str,
    fem: list[dict],
    oems: list[dict],
    target: float,
    error: str,
    startup: dict,
) -> dict:
    """Prints and returns Fieldline's and openEMS's time to `target`, by wall and CPU clock, with and
    without the interpreter start-up."""
    out: dict = {"case": case, "target": target}
    for clock in ("seconds", "cpu_seconds"):
        a, b = time_to(fem, target, error, clock), time_to(oems, target, error, clock)
        label = "wall" if clock == "seconds" else "CPU"
        if not (a and b):
            who = " and ".join(
                n for n, r in (("Fieldline", a), ("openEMS", b)) if not r
            )
            print(f"{case}: {100 * target:g} % not reached by {who} ({label})")
            continue
        ratio = a[clock] / b[clock]
        a_s, b_s = (
            a[clock] + startup["fieldline"][clock],
            b[clock] + startup["openems"][clock],
        )
        out[clock] = {
            "fieldline": a[clock],
            "fieldline_rung": a["rung"],
            "openems": b[clock],
            "openems_rung": b["rung"],
            "ratio": ratio,
            "ratio_with_startup": a_s / b_s,
        }
        print(
            f"{case}, time to {100 * target:g} % ({label} s): Fieldline {a[clock]:.2f} ({a['rung']}), "
            f"openEMS {b[clock]:.2f} ({b['rung']}) → Fieldline/openEMS {ratio:.3g}; "
            f"with interpreter start-up {a_s:.2f} vs {b_s:.2f} → {a_s / b_s:.3g}"
        )
        phases = a.get("phases_cpu_s" if clock == "cpu_seconds" else "phases_wall_s")
        if phases:  # where Fieldline's time goes: meshing is start-up-like work FDTD does not have
            print(
                f"  Fieldline's {label} s by phase: "
                + ", ".join(f"{k} {v:.2f}" for k, v in phases.items())
                + f"; without meshing {a[clock] - phases['mesh']:.2f} → "
                f"{(a[clock] - phases['mesh']) / b[clock]:.3g}× openEMS"
            )
    return out


def progress(row: dict) -> dict:
    """Each rung as it finishes (a long run on a loaded machine shows where it is)."""
    error = row.get("frequency_error", row.get("delay_error"))
    print(
        f"  done: {row['solver']} {row['rung']}: {row['seconds']:.2f} s wall, {row['cpu_seconds']:.2f} s CPU, "
        f"error {100 * error:+.4f} %",
        flush=True,
    )
    return row


def sphere_main(startup: dict) -> dict:
    fem = [progress(sphere_fieldline.run(*rung)) for rung in SPHERE_FEM_LADDER]
    oems = [progress(openems_sphere_run(c)) for c in SPHERE_OPENEMS_LADDER]
    oems_given = [
        progress(openems_sphere_run(r["cells_per_side"], r["dt"])) for r in oems
    ]
    print(
        f"\n3D case: εr = {sphere_case.EPS_R:g} sphere (R = {sphere_case.R_MM:g} mm) in a {sphere_case.A_MM:g} mm PEC "
        f"cube, ringing frequency vs {sphere_case.REFERENCE_HZ / 1e9:.5f} GHz (eigen solver)"
    )
    print(
        f"{'code':28} {'rung':30} {'unknowns':>9} {'steps':>6} {'wall s':>8} {'CPU s':>7} {'f error':>10}"
    )
    for r in fem + oems + oems_given:
        print(
            f"{r['solver']:28} {r['rung']:30} {r['unknowns']:>9} {r['steps']:>6} {r['seconds']:>8.2f} "
            f"{r['cpu_seconds']:>7.2f} {100 * r['frequency_error']:>+9.3f}%"
        )
    for r in fem:
        print(
            f"  {r['solver']} {r['rung']}: CPU s mesh {r['phases_cpu_s']['mesh']:.2f}, setup "
            f"{r['phases_cpu_s']['setup']:.2f}, stepping {r['phases_cpu_s']['stepping']:.2f}; "
            f"{r['steps_per_s']:.0f} steps/s, {r['dof_steps_per_s']:.3g} DOF-steps/s"
        )
    return {
        "rows": fem + oems + oems_given,
        "time_to_1pct": report_time_to(
            "3D sphere", fem, oems, 0.01, "frequency_error", startup
        ),
        "time_to_1pct_openems_step_given": report_time_to(
            "3D sphere vs openEMS with its step given",
            fem,
            oems_given,
            0.01,
            "frequency_error",
            startup,
        ),
    }


def main() -> None:
    (HERE / "out").mkdir(exist_ok=True)
    startup = start_up()
    print(
        "interpreter start-up (imports): "
        + ", ".join(
            f"{k} {v['seconds']:.2f} s wall / {v['cpu_seconds']:.2f} s CPU"
            for k, v in startup.items()
        )
    )
    cases = sys.argv[1:] or ["sphere", "coax"]
    sphere = sphere_main(startup) if "sphere" in cases else None
    if "coax" not in cases:
        (HERE / "out" / "results_sphere.json").write_text(
            json.dumps({"sphere": sphere, "start_up": startup}, indent=1)
        )
        return
    wedge = [progress(dict(wedge_run(*rung), rung_args=rung)) for rung in WEDGE_LADDER]
    oems = [progress(openems_run(c)) for c in OPENEMS_LADDER]
    oems_given = [progress(openems_run(r["cells_per_mm"], r["dt"])) for r in oems]
    print(
        "\nCoax by its rotational symmetry: Fieldline wedge (PMC side faces) vs openEMS cylindrical (r, z)"
    )
    print(
        f"{'code':32} {'rung':52} {'tets':>5} {'unknowns':>9} {'steps':>6} {'wall s':>7} {'CPU s':>6} "
        f"{'mesh/setup/stepping CPU s':>26} {'delay error':>12} {'cross-corr.':>12}"
    )
    for r in wedge:
        ph = r["phases_cpu_s"]
        print(
            f"{r['solver']:32} {r['rung']:52} {r['tets']:>5} {r['unknowns']:>9} {r['steps']:>6} "
            f"{r['seconds']:>7.3f} {r['cpu_seconds']:>6.3f} "
            f"{ph['mesh']:>8.3f} /{ph['setup']:>6.3f} /{ph['stepping']:>6.3f}    {100 * r['delay_error']:>+11.4f}%"
            f" {100 * r['delay_error_cross_correlation']:>+11.4f}%"
        )
    for r in oems + oems_given:
        print(
            f"{r['solver']:32} {r['rung']:52} {'':>5} {r['cells']:>9} {r['steps']:>6} {r['seconds']:>7.3f} "
            f"{r['cpu_seconds']:>6.3f} {'':>26}    {100 * r['delay_error']:>+11.4f}%"
        )
    wedge_time_to = [
        {
            "openems": report_time_to(
                "coax wedge (symmetry)", wedge, oems, t, "delay_error", startup
            ),
            "openems_step_given": report_time_to(
                "coax wedge vs openEMS with its step given",
                wedge,
                oems_given,
                t,
                "delay_error",
                startup,
            ),
        }
        for t in TARGETS
    ]
    wedge_paired = {}
    for target in TARGETS:
        picks = [time_to(rows, target) for rows in (wedge, oems, oems_given)]
        if all(picks):
            pairs = paired_rounds(*picks)
            wedge_paired[f"{target:g}"] = pairs
            for clock, label in (("seconds", "wall"), ("cpu_seconds", "CPU")):
                p = pairs[clock]
                print(
                    f"coax wedge, time to {100 * target:g} %, {PAIRED_ROUNDS} alternating rounds ({label} s): "
                    f"Fieldline median {statistics.median(p['fieldline']):.3f} ({picks[0]['rung']}), openEMS "
                    f"{statistics.median(p['openems']):.3f}, openEMS step given "
                    f"{statistics.median(p['openems_step_given']):.3f} → Fieldline/openEMS "
                    f"{p['ratio_median']:.3g}, Fieldline/openEMS step given {p['ratio_step_given_median']:.3g} "
                    "(medians of the per-round ratios)"
                )
                print(
                    f"  as a job on a standby engine process: Fieldline median "
                    f"{statistics.median(p['fieldline_standby']):.4f} → /openEMS step given "
                    f"{p['ratio_standby_to_step_given_median']:.3g}; openEMS step given after a warm-up run "
                    f"{statistics.median(p['openems_step_given_warm']):.4f} → both warm "
                    f"{p['ratio_both_warm_median']:.3g}"
                )
    fem = [progress(fem_run(*rung)) for rung in FEM_LADDER]
    block = smatrix_stepping()
    rows = fem + oems
    print("\nCoax echo delay, full 3D line")
    print(
        f"{'code':28} {'rung':30} {'unknowns':>9} {'steps':>6} {'wall s':>8} {'CPU s':>7} {'delay error':>12} "
        f"{'cross-corr.':>12}"
    )
    for r in rows:
        xc = r.get("delay_error_cross_correlation")
        print(
            f"{r['solver']:28} {r['rung']:30} {r['unknowns']:>9} {r['steps']:>6} {r['seconds']:>8.2f} "
            f"{r['cpu_seconds']:>7.2f} {100 * r['delay_error']:>+11.4f}%"
            + (f" {100 * xc:>+11.4f}%" if xc is not None else "")
        )
    for r in (fem[0], fem[-1]):
        print(
            f"Fieldline {r['rung']}: {r['unknowns']} unknowns, {r['steps_per_s']:.1f} steps/s, "
            f"{r['dof_steps_per_s']:.3g} DOF-steps/s (stepping {r['seconds_stepping']:.2f} s)"
        )
    for r in oems:
        print(
            f"openEMS {r['rung']}: {r['cells']} cells, {r['cell_steps_per_s']:.3g} cell-steps/s"
        )
    print(
        f"two-port S-matrix stepping ({block['unknowns']} unknowns, {block['steps']} steps per excitation): "
        f"one by one {block['one_by_one_stepping_s']:.2f} s, as one block {block['block_stepping_s']:.2f} s "
        f"(max relative difference {block['max_relative_difference']:.1e})"
    )
    coax_time_to = [
        report_time_to("coax full 3D line", fem, oems, t, "delay_error", startup)
        for t in TARGETS
    ]
    ratios = {}
    for target in TARGETS:
        a, b = time_to(fem, target), time_to(oems, target)
        if a and b:
            ratios[f"{target:g}"] = a["seconds"] / b["seconds"]
            print(
                f"full 3D line, time to {100 * target:g} % delay error: Fieldline {a['seconds']:.2f} s ({a['rung']}), "
                f"openEMS {b['seconds']:.2f} s ({b['rung']}) → ratio Fieldline/openEMS {a['seconds'] / b['seconds']:.3g}"
            )
        else:
            print(
                f"time to {100 * target:g} %: not reached by {'Fieldline' if not a else 'openEMS'}"
            )
    (HERE / "out" / "results.json").write_text(
        json.dumps(
            {
                "rows": rows,
                "wedge_rows": wedge,
                "wedge_openems_step_given_rows": oems_given,
                "wedge_time_to": wedge_time_to,
                "wedge_paired_rounds": wedge_paired,
                "ratios": ratios,
                "smatrix_stepping": block,
                "coax_time_to": coax_time_to,
                "sphere": sphere,
                "start_up": startup,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
