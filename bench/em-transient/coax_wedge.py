"""Fieldline on the bench's coax by its rotational symmetry: one rung in a fresh process, timed by phase.

The TEM wave has E radial and H azimuthal, so a wedge of the line whose two radial side faces carry the
E-formulation's natural condition (PMC, n×H = 0: faces left without a PEC condition, a `neumannConditions`
face in a job) carries it exactly; the conductors' arcs and the short stay PEC. openEMS runs the same
line in cylindrical coordinates as a 2D (r, z) grid, i.e. with the same symmetry.

Same problem as bench.py's full-coax rungs (RG-401 radii, L = 40 mm to a short, Gaussian pulse τ = 39.8 ps,
same run length); the TEM port's mode on the wedge face comes from the engine's 2D solve with the PMC
edges natural (em/ports/eigenmode.py). The echo is read from the port's modal amplitude (the wedge face
has no port-voltage path; the TEM voltage is proportional to it, so the delay is the same).

Two meshes: netgen's (curved to the order; `netgen` rungs) or a structured (ρ, φ, z) grid of straight
tetrahedra built without a mesher and read through the product's uploaded-mesh path (`structured` rungs:
model_from_mesh_data + build_ngsolve_mesh, as a job's uploaded tets are), which is how openEMS gets its
grid too: lines the script lays down. The delay is read two ways from the same run: the cross-correlation
of the echo with the incident pulse (which keeps Newmark's dispersion, ≈ (ωΔt)²/12), and the group delay
of their spectral ratio with Newmark's exact frequency warping undone (warping.echo_group_delay; the
time step's error leaves it and the mesh's stays), fitted over the pulse's band up to 12 GHz, where its
spectrum is 10 % of its peak (openEMS's fc for the same pulse).

Timed like openems_coax.py: from before meshing to the end of stepping, in a fresh interpreter, imports
excluded (bench.py measures those as start-up), so first-use costs inside NGSolve and the engine count.
Run: `.venv/bin/python bench/em-transient/coax_wedge.py netgen ORDER ANGLE_DEG MAXH_MM CURVATURE_SAFETY DT_PS`
or `… coax_wedge.py structured ORDER ANGLE_DEG N_RADIAL N_AXIAL DT_PS` (one JSON line on stdout); `--standby`
times the rung as a job on a standby engine process runs it (server ENGINE_STANDBY, the default): after
the engine's generic warm-up (`core/warm_up.py`, a cube, not this model) in the same process.
"""

import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(
    0, str(Path(__file__).resolve().parents[2] / "engine")
)  # this checkout's engine

from fieldline_engine.em.constants import C0
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.em.transient.solver import TransientSolver
from fieldline_engine.em.transient.spectrum import echo_delay
from fieldline_engine.em.transient.warping import echo_group_delay
from fieldline_engine.em.transient.waveforms import Waveform
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.testing.rf_meshes import (
    coax_wedge_face_labels,
    coax_wedge_mesh,
    structured_coax_wedge,
)

L = 0.04
TAU = 3 / (2 * math.pi * 12e9)
EXACT = 2 * L / C0
WALL = "sym"  # the two radial side faces: no PEC condition, so PMC
F_FIT = 12e9  # the pulse's spectrum is 10 % of its peak here (exp(−(πfτ)²) with τ = 3/(2π·12 GHz))


def netgen_wedge(order: int, angle_deg: float, maxh_mm: float, safety: float):
    mesh = coax_wedge_mesh(
        L,
        angle_deg,
        maxh_mm * 1e-3,
        curve_order=order if order > 1 else 0,
        curvature_safety=safety,
        end_labels=("port_0", "default"),
        wall_label=WALL,
        parallel_meshing=False,  # single-threaded
        grading=0.9,  # let the elements grow along the line (netgen's default 0.3 keeps them short)
        optsteps3d=0,
    )
    return mesh, f"netgen, h={maxh_mm:g} mm, curv. {safety:g}"


def structured_wedge(angle_deg: float, n_radial: int, n_axial: int):
    """Straight tets on a (ρ, φ, z) grid, one cell across the angle, through the uploaded-mesh path."""
    model = model_from_mesh_data(
        structured_coax_wedge(L, angle_deg, n_radial, 1, n_axial)
    )
    labels = coax_wedge_face_labels(model.vertices, model.faces, angle_deg)
    return (
        build_ngsolve_mesh(model, labels),
        f"structured {n_radial}×1×{n_axial} cells",
    )


def run(
    kind: str, order: int, angle_deg: float, a: float, b: float, dt_ps: float
) -> dict:
    dt = dt_ps * 1e-12
    clocks = [(time.perf_counter(), time.process_time())]
    if kind == "netgen":
        mesh, described = netgen_wedge(order, angle_deg, a, b)
    else:
        mesh, described = structured_wedge(angle_deg, int(a), int(b))
    clocks.append((time.perf_counter(), time.process_time()))
    port = build_wave_port(
        mesh, "port_0", "1", "TEM", 1.0, order=order, pec="default", pmc=WALL
    )
    wf = Waveform("gaussian", TAU, 5 * TAU, 0.0)
    solver = TransientSolver(
        mesh, uniform_media(1.0), order, "default", wf, ports=[port]
    )
    clocks.append((time.perf_counter(), time.process_time()))
    steps = math.ceil((wf.delay + EXACT + 6 * TAU) / dt)
    res = solver.run("newmark", dt, steps, energy_stride=steps, record_currents=False)
    clocks.append((time.perf_counter(), time.process_time()))
    incident = res.port_incident["1"]
    reflected = res.port_modal["1"] - incident
    echo = echo_group_delay(res.times, incident, reflected, "newmark", F_FIT)
    correlated = echo_delay(res.times, incident, reflected)
    names = ("mesh", "setup", "stepping")
    return {
        "solver": "Fieldline (FEM wedge, Newmark)",
        "rung": f"wedge {angle_deg:g}°, {described}, p={order}, Δt={dt_ps:g} ps",
        "tets": int(mesh.ne),
        "unknowns": solver.ndof,
        "steps": steps,
        "seconds": clocks[-1][0] - clocks[0][0],
        "cpu_seconds": clocks[-1][1] - clocks[0][1],
        "phases_wall_s": {
            n: clocks[i + 1][0] - clocks[i][0] for i, n in enumerate(names)
        },
        "phases_cpu_s": {
            n: clocks[i + 1][1] - clocks[i][1] for i, n in enumerate(names)
        },
        "seconds_stepping": res.seconds_stepping,
        "steps_per_s": steps / res.seconds_stepping,
        "dof_steps_per_s": steps * solver.ndof / res.seconds_stepping,
        "factor": res.factor,
        "port_mode": port.mode.source,
        "delay_error": (echo.delay - EXACT) / EXACT,
        "delay_error_cross_correlation": (correlated.delay - EXACT) / EXACT,
        "echo_gain": echo.gain,
    }


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--standby"]
    if "--standby" in sys.argv:
        # As a job runs on a standby engine process: the libraries warmed up on a generic cube first.
        from fieldline_engine.core.warm_up import warm_up

        warm_up()
    print(
        json.dumps(
            run(
                args[0],
                int(args[1]),
                float(args[2]),
                float(args[3]),
                float(args[4]),
                float(args[5]),
            )
        )
    )
