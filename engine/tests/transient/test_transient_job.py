"""`analysisType: "em-time"` through the engine command on uploaded tetrahedra (a coaxial line in mm):
time_domain_info, animation frames in results.json and results.bin, the pulse-derived reflection of a
short, a voltage source between Dirichlet face groups, and clear refusals."""

import cmath
import json
import math

import numpy as np
import pytest
from validation.recorder import RECORDER

from fieldline_engine.em.constants import C0, ETA0
from fieldline_engine.em.transient.spectrum import echo_delay
from fieldline_engine.post.results_binary import MAGIC
from fieldline_engine.testing.rf_meshes import coax_mesh
from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve

L_MM = 20.0


@pytest.fixture(scope="module")
def shorted_coax():
    mesh = coax_mesh(L_MM * 1e-3, maxh=0.006, curvature_safety=1.0, end_labels=("port_0", "default"))
    return mesh_data_from_ngsolve(mesh, "mm")


def write_job(tmp_path, mesh_data, config):
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh_data, "config": config}))


def read_bin_header(path):
    raw = path.read_bytes()
    assert raw[:4] == MAGIC
    length = int.from_bytes(raw[8:12], "little")
    return json.loads(raw[12 : 12 + length])


def test_coax_pulse_job_with_frames(engine, tmp_path, shorted_coax):
    mesh_data, faces = shorted_coax
    config = {
        "analysisType": "em-time",
        "meshOrder": 2,
        "timeStep": 4e-12,
        "endTime": 0.5e-9,
        "pulseShape": "gaussian",
        "pulseWidth": 30e-12,
        "useWavePorts": True,
        "wavePorts": [{"portID": 1, "faces": faces["port_0"], "mode": "TEM"}],
        "animate": True,
        "animationFrames": 10,
        "probePoints": [[2.0, 0.0, 10.0], {"name": "outside", "point": [0.0, 0.0, 10.0]}],
    }
    write_job(tmp_path, mesh_data, config)
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    steps = [e for e in events if e["event"] == "progress" and "Time step" in e.get("message", "")]
    assert steps[-1]["message"].startswith("Time step 125/125 (100%)")
    assert len(steps) >= 100 and all(
        a["percent"] <= b["percent"] for a, b in zip(steps, steps[1:], strict=False)
    )

    res = json.loads((tmp_path / "results.json").read_text())
    info = res["solver_info"]
    assert info["analysis"] == "em-time" and info["time_scheme"] == "newmark" and info["steps"] == 125
    tdi = res["time_domain_info"]
    assert tdi["scheme"] == "newmark" and tdi["time_step"] == 4e-12 and len(tdi["times"]) == 126
    assert [p["name"] for p in tdi["probes"]] == ["P1"]  # the point on the axis is inside the inner conductor
    assert any("outside the mesh" in n for n in tdi["notes"])
    assert not any("steps per width" in n for n in tdi["notes"])  # 30 ps pulse, 4 ps steps: resolved
    assert len(tdi["probes"][0]["e"]) == 126 and len(tdi["probes"][0]["h"][0]) == 3
    # the probe's spectrum after the pulse, Newmark's warping undone (values: test_newmark_warping.py)
    assert tdi["resonances"]["corrected"] and tdi["resonances"]["probes"][0]["probe"] == "P1"

    # Echo of the short: inverted, after 2L/c.
    t = np.asarray(tdi["times"])
    port = tdi["ports"][0]
    v, v_inc = np.asarray(port["voltage"]), np.asarray(port["incident_voltage"])
    echo = echo_delay(t, v_inc, v - v_inc)
    exact = 2 * L_MM * 1e-3 / C0
    err = (echo.delay - exact) / exact
    print(
        f"job: echo {echo.delay * 1e9:.5f} ns vs 2L/c {exact * 1e9:.5f} ns ({err:+.3%}), gain {echo.gain:+.3f}"
    )
    assert abs(err) < 0.01 and echo.gain < -0.95

    # Pulse-derived reflection of the short at the port: S11 = −e^{−jω·2L/c} over the pulse's band.
    fr = tdi["frequency_response"]
    s11 = np.array([complex(*z) for z in fr["s_parameters"]["column"]["S11"]])
    f = np.asarray(fr["frequencies"])
    expected = -np.exp(-2j * math.pi * f * exact)
    within = f < 10e9
    mag_err = float(np.max(np.abs(np.abs(s11[within]) - 1)))
    phase_err = float(np.max(np.abs(np.angle(s11[within] / expected[within], deg=True))))
    print(f"job: |S11| of the short within {mag_err:.3f} of 1, phase within {phase_err:.2f}° up to 10 GHz")
    # Straight-sided (uploaded) tetrahedra: the analytic TEM profile on the polygonal port face leaves a
    # ~1 % port mismatch, seen as a ±2–4 % ripple on |S11|.
    assert mag_err < 0.05
    worst = int(np.argmax(np.abs(np.angle(s11[within] / expected[within], deg=True))))
    RECORDER.record(
        "em-time-job-short-phase",
        value=float(np.angle(s11[within][worst], deg=True)),
        reference=float(np.angle(expected[within][worst], deg=True)),
        error=phase_err,
        unknowns=info.get("matrix_size"),
        order=info.get("element_order"),
    )

    # Energy: the pulse enters, then leaves again through the port after the echo.
    energy = tdi["energy"]
    assert max(energy["total"]) > 1e3 * energy["total"][-1] > 0

    # Animation: 10 frames evenly spaced, the last one is the final state.
    anim = res["animation"]
    assert anim["frames"] == 10 and anim["kind"] == anim["axis"] == "time" and anim["unit"] == "s"
    assert np.allclose(anim["frame_values"], np.arange(1, 11) * 0.05e-9)
    nv = len(res["vertices"])
    assert np.shape(anim["data"][3]["electric_field"]) == (nv, 3)
    magnitudes = [np.linalg.norm(fr_["electric_field"], axis=1) for fr_ in anim["data"]]
    assert np.allclose(magnitudes[-1], res["field_magnitudes"]["e_magnitudes"]["data"])
    assert max(m.max() for m in magnitudes) > 100 * magnitudes[-1].max()

    header = read_bin_header(tmp_path / "results.bin")
    assert header["animation"]["axis"] == "time" and header["animation"]["frame_count"] == 10
    assert header["arrays"]["frames/9/electric_field"]["shape"] == [nv, 3]
    assert header["arrays"]["frames/0/magnetic_field"]["shape"] == [nv, 3]
    assert header["fields"]["electric_field"]["unit"] == "V/m"


def test_a_pulse_under_five_steps_wide_gets_a_note(engine, tmp_path, shorted_coax):
    """The spec's defaults (timeStep 100 ps, endTime 1 ns) make the automatic pulse endTime/15 = 66.7 ps wide,
    under one step: the run goes ahead, and says its pulse is not resolved and which step would be."""
    mesh_data, faces = shorted_coax
    config = {
        "analysisType": "em-time",
        "meshOrder": 1,
        "timeStep": 100e-12,
        "endTime": 1e-9,
        "useWavePorts": True,
        "wavePorts": [{"portID": 1, "faces": faces["port_0"], "mode": "TEM"}],
    }
    write_job(tmp_path, mesh_data, config)
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    notes = json.loads((tmp_path / "results.json").read_text())["time_domain_info"]["notes"]
    note = next(n for n in notes if "steps per width" in n)
    print(f"under-resolved pulse: {note}")
    assert "6.667e-11 s wide" in note and "at most 1.333e-11 s" in note


def test_voltage_source_between_face_groups(engine, tmp_path):
    """A parallel-plate line w × d × L (mm) with PMC side walls carries an exact TEM wave, Z0 = η0·d/w.
    Top plate at 1 V, bottom plate and the shorting end at 0 V: the source sits on the open feed face
    z = 0. With R = Z0 it is matched, so the line sees half the EMF, the echo of the short comes back
    inverted after 2L/c and is absorbed, and Z_in(f) = jZ0·tan(βL)."""
    from fieldline_engine.testing.meshes import box_mesh, faces_on_plane

    w, d, length = 10.0, 5.0, 20.0
    mesh = box_mesh((w, d, length), (2, 1, 12))
    mesh["units"] = "mm"
    z0 = ETA0 * d / w
    config = {
        "analysisType": "em-time",
        "meshOrder": 2,
        "timeStep": 2e-12,
        "endTime": 0.45e-9,
        "pulseWidth": 30e-12,
        "portImpedance": z0,
        "dirichletFaceConditions": [
            {"faces": faces_on_plane(mesh, 1, d), "voltage": 1.0, "name": "top"},
            {
                "faces": faces_on_plane(mesh, 1, 0.0) + faces_on_plane(mesh, 2, length),
                "voltage": 0.0,
                "name": "bottom",
            },
        ],
        "neumannConditions": [
            {"faces": faces_on_plane(mesh, 0, 0.0) + faces_on_plane(mesh, 0, w), "flux": 0}
        ],
    }
    write_job(tmp_path, mesh, config)
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    tdi = json.loads((tmp_path / "results.json").read_text())["time_domain_info"]
    src = tdi["voltage_sources"][0]
    assert sorted(src["between"]) == ["bottom", "top"] and src["emf_amplitude_v"] == 1.0
    assert abs(src["sheet_impedance_ohm"] - z0 * w / d) < 1e-6 * z0  # Z_s = R·w/l for a uniform gap
    t = np.asarray(tdi["times"])
    vg = np.asarray(src["voltage"])
    ex = tdi["excitation"]
    emf = np.exp(-(((t - ex["delay_s"]) / ex["width_s"]) ** 2))
    k = int(np.argmax(emf))
    ratio = vg[k] / emf[k]
    echo = echo_delay(t, 0.5 * emf, vg - 0.5 * emf)
    exact = 2 * length * 1e-3 / C0
    late = t > ex["delay_s"] + exact + 4 * ex["width_s"]
    residue = float(np.max(np.abs(vg[late])))
    print(
        f"gap source: V/EMF at the peak {ratio:.4f} (matched: 0.5), echo {echo.delay * 1e9:.5f} ns "
        f"({(echo.delay - exact) / exact:+.3%}), gain {echo.gain:+.4f}, left after the echo {residue:.1e} V"
    )
    assert abs(ratio - 0.5) < 0.005
    assert abs(echo.delay - exact) / exact < 0.01 and echo.gain < -0.98
    assert residue < 0.01  # the matched source absorbed the echo
    response = tdi["frequency_response"]["voltage_sources"][0]
    f_hz = np.asarray(tdi["frequency_response"]["frequencies"])
    band = f_hz < 12e9
    s11 = np.array([complex(*x) for x in response["s11"]])[band]
    expected = -np.exp(-2j * math.pi * f_hz[band] * exact)  # Z_in = jZ0·tan(βL) against R = Z0
    mag_err = float(np.max(np.abs(np.abs(s11) - 1)))
    phase_err = float(np.max(np.abs(np.angle(s11 / expected, deg=True))))
    zin = complex(*response["input_impedance_ohm"][3])
    print(
        f"gap source: S11 of the shorted line: |S11| within {mag_err:.4f} of 1, phase within {phase_err:.3f}° "
        f"up to 12 GHz; Z_in({f_hz[3] / 1e9:.2f} GHz) = {zin.real:.2f}{zin.imag:+.2f}j Ω, "
        f"jZ0·tan(βL) = {z0 * math.tan(math.pi * f_hz[3] * exact):+.2f}j Ω"
    )
    assert mag_err < 0.01 and phase_err < 2.0  # 2βL is 576° at 12 GHz: 2° is a 0.35 % delay


def test_explicit_step_above_the_limit_is_refused(engine, tmp_path, shorted_coax):
    mesh_data, faces = shorted_coax
    config = {
        "analysisType": "em",
        "transient": True,
        "timeScheme": "explicit",
        "useWavePorts": True,
        "wavePorts": [{"portID": 1, "faces": faces["port_0"], "mode": "TEM"}],
    }
    write_job(tmp_path, mesh_data, config)
    final = engine("solve", tmp_path)[-1]
    print("refusal:", final.get("message"))
    assert final["event"] == "error" and final["code"] == "invalid_input"
    assert "timeStep 1e-10 s is above the explicit scheme's stability limit" in final["message"]
    limit = float(final["message"].split("stability limit ")[1].split(" s")[0])
    assert 1e-14 < limit < 1e-11
    assert not (tmp_path / "results.json").exists()


def test_te10_port_needs_a_carrier(engine, tmp_path):
    from fieldline_engine.testing.meshes import box_mesh, faces_on_plane

    mesh = box_mesh((22.86, 10.16, 30.0), (2, 1, 3))
    mesh["units"] = "mm"
    config = {
        "analysisType": "em-time",
        "useWavePorts": True,
        "wavePorts": [{"portID": 1, "faces": faces_on_plane(mesh, 2, 0.0), "mode": "TE10"}],
    }
    write_job(tmp_path, mesh, config)
    final = engine("solve", tmp_path)[-1]
    assert final["event"] == "error" and "propagates only above 6.557 GHz" in final["message"]
    config["timeScheme"] = "leapfrog"
    write_job(tmp_path, mesh, config)
    final = engine("solve", tmp_path)[-1]
    assert final["event"] == "error" and "timeScheme 'leapfrog'" in final["message"]


def test_phase_convention_of_pulse_transform():
    """The transform convention: a delayed pulse has the phase e^{−jωτ} (e^{+jωt} phasors)."""
    from fieldline_engine.em.transient.spectrum import dtft

    t = np.arange(2000) * 1e-12
    pulse = np.exp(-(((t - 0.3e-9) / 30e-12) ** 2))
    delayed = np.exp(-(((t - 0.5e-9) / 30e-12) ** 2))
    f = np.array([3e9])
    ratio = dtft(t, delayed, f)[0] / dtft(t, pulse, f)[0]
    assert abs(cmath.phase(ratio) - cmath.phase(cmath.exp(-2j * math.pi * 3e9 * 0.2e-9))) < 1e-9


def test_grid_fields_hold_the_final_state(engine, tmp_path, shorted_coax):
    """gridFieldsEnabled on an em-time run samples the final E and H on the grid: at a grid point that is
    also a probe, the grid value equals the probe's last sample."""
    mesh_data, faces = shorted_coax
    v = np.asarray(mesh_data["vertices"])
    lo, hi = v.min(axis=0), v.max(axis=0)
    res = (5, 5, 3)
    axes = [np.linspace(lo[i], hi[i], n) for i, n in enumerate(res)]
    point = [float(axes[0][3]), float(axes[1][2]), float(axes[2][1])]  # in the dielectric, half-way along
    config = {
        "analysisType": "em-time",
        "timeStep": 4e-12,
        "endTime": 0.2e-9,
        "pulseWidth": 30e-12,
        "useWavePorts": True,
        "wavePorts": [{"portID": 1, "faces": faces["port_0"], "mode": "TEM"}],
        "probePoints": [point],
        "gridFieldsEnabled": True,
        "gridResolution": list(res),
        "gridPaddingFactor": 0.0,
    }
    write_job(tmp_path, mesh_data, config)
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    out = json.loads((tmp_path / "results.json").read_text())
    grid = out["grid"]
    assert grid["resolution"] == list(res) and 0 < grid["inside_count"] < 75
    index = (3 * res[1] + 2) * res[2] + 1
    e_grid = grid["fields"]["e_magnitude"][index]
    e_probe = float(np.linalg.norm(out["time_domain_info"]["probes"][0]["e"][-1]))
    print(f"em-time grid: |E| at the probe point {e_grid:.6g} V/m, probe's last sample {e_probe:.6g} V/m")
    assert e_probe > 1.0 and e_grid == pytest.approx(e_probe, rel=1e-5)
    assert np.asarray(grid["fields"]["h_magnitude"]).max() > 0
    assert not any("Grid fields" in n for n in out["time_domain_info"]["notes"])


def test_curved_geometry_is_used_in_the_time_domain(engine, tmp_path, shorted_coax):
    """useCurvedGeometry curves the uploaded coax (quadratic surfaces from the triangulation), which brings
    the port face closer to the analytic TEM profile: the short's |S11| moves closer to 1."""
    mesh_data, faces = shorted_coax
    errors = {}
    for curved in (False, True):
        config = {
            "analysisType": "em-time",
            "meshOrder": 2,
            "timeStep": 4e-12,
            "endTime": 0.5e-9,
            "pulseWidth": 30e-12,
            "useWavePorts": True,
            "wavePorts": [{"portID": 1, "faces": faces["port_0"], "mode": "TEM"}],
            "useCurvedGeometry": curved,
        }
        write_job(tmp_path, mesh_data, config)
        assert engine("solve", tmp_path)[-1]["event"] == "done"
        res = json.loads((tmp_path / "results.json").read_text())
        info = res["solver_info"]
        assert info["curved_geometry"]["curved"] is curved and "warnings" not in info
        fr = res["time_domain_info"]["frequency_response"]
        s11 = np.array([complex(*z) for z in fr["s_parameters"]["column"]["S11"]])
        within = np.asarray(fr["frequencies"]) < 10e9
        errors[curved] = float(np.max(np.abs(np.abs(s11[within]) - 1)))
    print(f"em-time |S11| of the short within {errors[False]:.4f} of 1 straight, {errors[True]:.4f} curved")
    assert info["curved_geometry"]["curved_edges"] > 0
    assert errors[True] < 0.9 * errors[False]


def test_resistive_wall_reflects_as_a_tem_load(engine, tmp_path):
    """An impedance wall with real Z_s terminating the air coax is a TEM load of wave impedance Z_s:
    S11 = Γ·e^{−jω·2L/c} with Γ = (Z_s − η0)/(Z_s + η0) (η0 = 376.73 Ω); Z_s = η0 is matched."""
    mesh = coax_mesh(L_MM * 1e-3, maxh=0.006, curvature_safety=1.0, end_labels=("port_0", "port_1"))
    mesh_data, faces = mesh_data_from_ngsolve(mesh, "mm")
    measured = {}
    for factor in (1.0, 3.0):
        config = {
            "analysisType": "em-time",
            "meshOrder": 2,
            "timeStep": 4e-12,
            "endTime": 0.5e-9,
            "pulseWidth": 30e-12,
            "useWavePorts": True,
            "wavePorts": [{"portID": 1, "faces": faces["port_0"], "mode": "TEM"}],
            "impedanceConditions": [
                {"faces": faces["port_1"], "impedance": {"real": factor * ETA0, "imag": 0}}
            ],
        }
        write_job(tmp_path, mesh_data, config)
        events = engine("solve", tmp_path)
        assert events[-1]["event"] == "done", events[-1]
        fr = json.loads((tmp_path / "results.json").read_text())["time_domain_info"]["frequency_response"]
        s11 = np.array([complex(*z) for z in fr["s_parameters"]["column"]["S11"]])
        within = np.asarray(fr["frequencies"]) < 10e9
        measured[factor] = np.abs(s11[within])
    gamma = (3.0 - 1.0) / (3.0 + 1.0)
    err = float(np.max(np.abs(measured[3.0] - gamma)))
    print(
        f"em-time resistive wall: Z_s = 3η0 |S11| within {err:.3f} of Γ = 0.5; "
        f"Z_s = η0 |S11| ≤ {measured[1.0].max():.3f} (matched)"
    )
    # straight-sided port faces leave the ~±4 % ripple of the shorted line (test_coax_pulse_job_with_frames)
    assert err < 0.05 and measured[1.0].max() < 0.05
