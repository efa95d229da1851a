"""Fieldline's time-domain FEM on the bench's 3D case (sphere_case.py): one rung, timed by phase.

netgen OCC mesh of the cube with the sphere glued in (curved to the element order), the transient solver
(em/transient, the code the API runs) with a z-directed current density J_z ∝ exp(−r²/r0²), r0 = 1.5 mm, at the centre,
the same Gaussian-modulated pulse as openEMS's SetGaussExcite(f0, fc), an E probe at PROBE_MM.
Wall and CPU seconds are taken per phase: mesh (meshing + curving), setup (assembly, sources; for the
explicit scheme also its stability limit), stepping (factorization included).
"""

import math
import sys
import time
from itertools import pairwise
from pathlib import Path

sys.path.insert(
    0, str(Path(__file__).resolve().parents[2] / "engine")
)  # this checkout's engine

import ngsolve as ng
from fieldline_engine.em.fullwave.media import Media
from fieldline_engine.em.transient.solver import TransientSolver
from fieldline_engine.em.transient.sources import VolumeCurrent
from fieldline_engine.em.transient.waveforms import Waveform
from netgen.occ import Box, Glue, OCCGeometry, Pnt, Sphere
from sphere_case import (
    A_MM,
    END_TIME,
    EPS_R,
    F0,
    PROBE_MM,
    R_MM,
    REFERENCE_HZ,
    T0,
    TAU,
    ringing_frequency,
)

SOURCE_RADIUS = 1.5e-3


def sphere_mesh(
    maxh_mm: float,
    curve_order: int,
    curvature_safety: float | None = None,
    opt_steps: int | None = None,
) -> ng.Mesh:
    """`curvature_safety`: netgen's elements per radius of curvature (its default 2 refines the sphere's
    surface well below maxh; 1 keeps maxh there: a third of the elements, larger stable steps)."""
    a, r = A_MM * 1e-3, R_MM * 1e-3
    box = Box(Pnt(-a / 2, -a / 2, -a / 2), Pnt(a / 2, a / 2, a / 2))
    ball = Sphere(Pnt(0, 0, 0), r)
    air = box - ball
    air.mat("air")
    ball.mat("diel")
    air.faces.name = "default"
    ball.faces.name = "interface"
    # single-threaded like the rest of the bench: netgen's default meshes the two domains on spinning
    # worker threads, which costs 0.3–0.4 CPU s here instead of 0.05
    options: dict = {"parallel_meshing": False}
    if curvature_safety is not None:
        options["curvaturesafety"] = curvature_safety
    if opt_steps is not None:  # optimization passes in 2D and 3D (netgen's default: 3)
        options.update(optsteps2d=opt_steps, optsteps3d=opt_steps)
    mesh = ng.Mesh(
        OCCGeometry(Glue([air, ball])).GenerateMesh(maxh=maxh_mm * 1e-3, **options)
    )
    if curve_order > 1:
        mesh.Curve(curve_order)
    return mesh


def run(
    order: int,
    maxh_mm: float,
    dt: float | None,
    scheme: str = "newmark",
    curvature_safety: float | None = None,
    opt_steps: int | None = None,
) -> dict:
    """`dt` None: the explicit scheme's stable step (0.95 of its limit)."""
    clocks = [(time.perf_counter(), time.process_time())]
    mesh = sphere_mesh(maxh_mm, order, curvature_safety, opt_steps)
    clocks.append((time.perf_counter(), time.process_time()))
    media = Media(
        mesh.MaterialCF({"diel": EPS_R}, default=1.0),
        ng.CF(1.0),
        ng.CF(0.0),
        False,
        EPS_R,
    )
    # a smooth blob (r0 = 1.5 mm) rather than a small box: every mesh's quadrature sees all of it
    blob = ng.exp(-(ng.x * ng.x + ng.y * ng.y + ng.z * ng.z) / SOURCE_RADIUS**2)
    wf = Waveform("modulated_gaussian", TAU, T0, F0)
    solver = TransientSolver(
        mesh,
        media,
        order,
        "default",
        wf,
        currents=[VolumeCurrent((0, 0, 1.0), 0.0, blob)],
    )
    probes, _ = solver.probes_at([tuple(c * 1e-3 for c in PROBE_MM)])
    limit = None
    if scheme == "explicit":
        limit = solver.stability_limit()
        dt = dt or 0.95 * limit.critical_time_step
    clocks.append((time.perf_counter(), time.process_time()))
    steps = math.ceil(END_TIME / dt)
    result = solver.run(
        scheme, dt, steps, probes=probes, energy_stride=steps, stability=limit
    )
    clocks.append((time.perf_counter(), time.process_time()))
    f_recorded = ringing_frequency(result.times, result.probe_e["P1"][:, 2])
    f = ringing_frequency(result.times, result.probe_e["P1"][:, 2], scheme)
    wall = [b[0] - a[0] for a, b in pairwise(clocks)]
    cpu = [b[1] - a[1] for a, b in pairwise(clocks)]
    return {
        "solver": f"Fieldline (FEM, {scheme})",
        "rung": f"p={order}, h={maxh_mm:g} mm"
        + ("" if curvature_safety is None else f" (curv. {curvature_safety:g})")
        + (
            ""
            if opt_steps is None
            else f", {opt_steps} opt. pass{'es' if opt_steps != 1 else ''}"
        )
        + f", Δt={dt * 1e12:.3g} ps",
        "scheme": scheme,
        "unknowns": solver.ndof,
        "elements": mesh.ne,
        "steps": steps,
        "dt": dt,
        "seconds": sum(wall),
        "cpu_seconds": sum(cpu),
        "phases_wall_s": dict(zip(("mesh", "setup", "stepping"), wall, strict=True)),
        "phases_cpu_s": dict(zip(("mesh", "setup", "stepping"), cpu, strict=True)),
        "factor": result.factor,
        "steps_per_s": steps / result.seconds_stepping,
        "dof_steps_per_s": steps * solver.ndof / result.seconds_stepping,
        # corrected for the scheme's warping (what the engine reports); as recorded beside it
        "frequency_hz": f,
        "frequency_error": (f - REFERENCE_HZ) / REFERENCE_HZ,
        "recorded_frequency_error": (f_recorded - REFERENCE_HZ) / REFERENCE_HZ,
    }


if __name__ == "__main__":
    import json

    dt_arg = float(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] != "auto" else None
    scheme = sys.argv[4] if len(sys.argv) > 4 else "newmark"
    safety = (
        float(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[5] != "default" else None
    )
    passes = int(sys.argv[6]) if len(sys.argv) > 6 else None
    print(
        json.dumps(
            run(int(sys.argv[1]), float(sys.argv[2]), dt_arg, scheme, safety, passes)
        )
    )
