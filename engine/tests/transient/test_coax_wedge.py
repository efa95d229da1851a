"""The shorted coax of test_coax_echo.py by its rotational symmetry: a 30° wedge whose radial side faces
are symmetry planes (PMC, the E-formulation's natural condition). The TEM field E = ρ̂/ρ satisfies n×H = 0
there, so the wedge carries the line's wave exactly: the echo of the short comes back inverted after 2L/c.

The wave port on the wedge face (an annular sector, one perimeter loop) gets its TEM mode from the 2D
solve with the perimeter edges on the PMC faces natural; without that the face has one conductor loop
and no TEM mode.
"""

import json
import math

import ngsolve as ng
import numpy as np
import pytest
from validation.recorder import RECORDER

from fieldline_engine.em.constants import C0
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.em.transient.solver import TransientSolver
from fieldline_engine.em.transient.spectrum import echo_delay
from fieldline_engine.em.transient.warping import echo_group_delay
from fieldline_engine.em.transient.waveforms import Waveform
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.testing.rf_meshes import (
    RG401_INNER,
    RG401_OUTER,
    coax_wedge_face_labels,
    coax_wedge_mesh,
    structured_coax_wedge,
)
from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve

L = 0.04
TAU = 3 / (2 * math.pi * 12e9)
ANGLE = 30.0


def wedge(curve_order: int):
    return coax_wedge_mesh(
        L,
        ANGLE,
        0.02,
        curve_order=curve_order,
        curvature_safety=0.3,
        end_labels=("port_0", "default"),
        parallel_meshing=False,
        grading=0.9,
        optsteps3d=0,
    )


def test_tem_mode_on_a_wedge_face_needs_the_symmetry_walls():
    mesh = wedge(2)
    with pytest.raises(InvalidInput, match="TEM mode needs two conductors"):
        build_wave_port(mesh, "port_0", "1", "TEM", order=2, pec="default")
    port = build_wave_port(mesh, "port_0", "1", "TEM", order=2, pec="default", pmc="sym")
    assert port.mode.family == "TEM" and port.mode.source == "2d eigenmode"
    # E = ρ̂/ρ up to a factor: radial, and |E|·ρ the same at every radius and angle
    cf = port.mode.numeric_cf
    values = []
    for r in np.linspace(RG401_INNER, RG401_OUTER, 7)[1:-1]:
        for phi in np.radians([3.0, 15.0, 27.0]):
            e = np.array(cf(mesh(r * math.cos(phi), r * math.sin(phi), 0.0, ng.BND)))
            radial = np.array([math.cos(phi), math.sin(phi), 0.0])
            values.append((r * (e @ radial), np.linalg.norm(e - (e @ radial) * radial) / np.linalg.norm(e)))
    scaled = np.array([v[0] for v in values])
    spread = float(np.ptp(scaled) / np.mean(np.abs(scaled)))
    worst_angle = max(v[1] for v in values)
    print(f"wedge TEM mode: |E|·ρ spread {spread:.2e}, largest non-radial part {worst_angle:.2e}")
    assert spread < 0.03 and worst_angle < 0.01  # 1–2 curved triangles across the gap


def test_wedge_echo_delay_matches_the_full_line():
    mesh = wedge(2)
    port = build_wave_port(mesh, "port_0", "1", "TEM", order=2, pec="default", pmc="sym")
    wf = Waveform("gaussian", TAU, 5 * TAU, 0.0)
    solver = TransientSolver(mesh, uniform_media(1.0), 2, "default", wf, ports=[port])
    exact = 2 * L / C0
    dt = 4e-12
    run = solver.run("newmark", dt, math.ceil((wf.delay + exact + 6 * TAU) / dt), energy_stride=50)
    inc = run.port_incident["1"]
    echo = echo_delay(run.times, inc, run.port_modal["1"] - inc)
    err = (echo.delay - exact) / exact
    print(
        f"coax wedge {ANGLE:g}° (PMC sides), p=2, {mesh.ne} tets, {solver.ndof} unknowns, Δt 4 ps: echo "
        f"{echo.delay * 1e9:.5f} ns vs 2L/c {exact * 1e9:.5f} ns ({err:+.3%}), gain {echo.gain:+.4f}"
    )
    RECORDER.record(
        "em-coax-wedge-echo", value=echo.delay, reference=exact, error=err, unknowns=solver.ndof, order=2
    )
    assert abs(err) < 0.005 and echo.gain < -0.99
    # the matched port absorbs the echo: the energy left at the end is a small part of the peak
    assert run.energy_electric[-1] + run.energy_magnetic[-1] < 1e-3 * max(
        run.energy_electric + run.energy_magnetic
    )


def test_wedge_job_with_neumann_symmetry_faces(engine, tmp_path):
    """The product path: uploaded wedge tetrahedra, a TEM wave port, the side faces as a Neumann
    condition (PMC); the job finds the port's TEM mode and the echo of the short."""
    mesh_data, faces = mesh_data_from_ngsolve(wedge(0), "mm")
    config = {
        "analysisType": "em-time",
        "meshOrder": 2,
        "timeStep": 4e-12,
        "endTime": 0.5e-9,
        "pulseShape": "gaussian",
        "pulseWidth": 30e-12,
        "useWavePorts": True,
        "wavePorts": [{"portID": 1, "faces": faces["port_0"], "mode": "TEM"}],
        "neumannConditions": [{"faces": faces["sym"], "flux": 0}],
    }
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh_data, "config": config}))
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    tdi = json.loads((tmp_path / "results.json").read_text())["time_domain_info"]
    port = tdi["ports"][0]
    t = np.asarray(tdi["times"])
    a, a_inc = np.asarray(port["modal_amplitude"]), np.asarray(port["incident_modal_amplitude"])
    echo = echo_delay(t, a_inc, a - a_inc)
    exact = 2 * L / C0
    err = (echo.delay - exact) / exact
    print(f"wedge job: echo {echo.delay * 1e9:.5f} ns vs 2L/c ({err:+.3%}), gain {echo.gain:+.3f}")
    assert abs(err) < 0.01 and echo.gain < -0.95


def test_echo_group_delay_with_newmark_warping_undone_does_not_depend_on_the_time_step():
    """A structured wedge of straight tets (1 × 1 × 6 cells) read through the uploaded-mesh path. Newmark is
    the bilinear transform, so the ratio of two spectra of one run is the semi-discrete model's at the
    unwarped frequency: with the map undone the echo's group delay keeps only the mesh's error, while the
    cross-correlation carries Newmark's dispersion, ≈ (ωΔt)²/12 (bench/em-transient's 1 % rung)."""
    model = model_from_mesh_data(structured_coax_wedge(L, ANGLE, 1, 1, 6))
    mesh = build_ngsolve_mesh(model, coax_wedge_face_labels(model.vertices, model.faces, ANGLE))
    port = build_wave_port(mesh, "port_0", "1", "TEM", order=2, pec="default", pmc="sym")
    wf = Waveform("gaussian", TAU, 5 * TAU, 0.0)
    solver = TransientSolver(mesh, uniform_media(1.0), 2, "default", wf, ports=[port])
    exact = 2 * L / C0
    grouped, correlated = {}, {}
    for dt_ps in (4, 20):
        dt = dt_ps * 1e-12
        run = solver.run("newmark", dt, math.ceil((wf.delay + exact + 6 * TAU) / dt), energy_stride=1000)
        inc = run.port_incident["1"]
        echo = echo_group_delay(run.times, inc, run.port_modal["1"] - inc, "newmark", 12e9)
        grouped[dt_ps] = (echo.delay - exact) / exact
        correlated[dt_ps] = (echo_delay(run.times, inc, run.port_modal["1"] - inc).delay - exact) / exact
        print(
            f"structured wedge, {mesh.ne} straight tets, p=2, Δt {dt_ps} ps: group delay unwarped "
            f"{grouped[dt_ps]:+.3%}, cross-correlation {correlated[dt_ps]:+.3%}, gain {echo.gain:+.3f}"
        )
        assert echo.gain < -0.95
    RECORDER.record(
        "em-coax-wedge-group-delay-unwarped",
        value=exact * (1 + grouped[20]),
        reference=exact,
        error=grouped[20],
        unknowns=solver.ndof,
        order=2,
    )
    assert abs(grouped[20]) < 0.01 and abs(grouped[4]) < 0.01  # the mesh's error: 1 straight tet across
    assert abs(grouped[20] - grouped[4]) < 0.001  # the time step's error is gone ...
    assert correlated[20] - correlated[4] > 0.03  # ... where the cross-correlation keeps it
