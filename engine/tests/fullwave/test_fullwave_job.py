"""The full-wave and eigen paths through the engine command, on uploaded (box) tetrahedral meshes.

WR-90 as uploaded tetrahedra in mm with two TE10 wave ports: the sweep's S-matrix, the port
quantities, the fields, and the Touchstone/CSV exports (read back with scikit-rf).
"""

import cmath
import json
import math

import numpy as np
import pytest

from fieldline_engine.em.constants import C0
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane

A, B, L = 22.86, 10.16, 100.0  # mm


def wr90_job(tmp_path, **extra):
    mesh = box_mesh((A, B, L), (4, 2, 16))
    mesh["units"] = "mm"
    config = {
        "analysisType": "em",
        "frequency": 10e9,
        "meshOrder": 3,
        "useWavePorts": True,
        "wavePorts": [
            {"portID": 1, "faces": faces_on_plane(mesh, 2, 0.0), "mode": "TE10"},
            {"portID": 2, "faces": faces_on_plane(mesh, 2, L), "mode": "TE10", "amplitude": 0},
        ],
        "calculateSParameters": True,
        "sParamFreqMin": 7.6e9,
        "sParamFreqMax": 12.4e9,
        "sParamNumPoints": 3,
        **extra,
    }
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
    return mesh


def beta(f):
    k0 = 2 * math.pi * f / C0
    return math.sqrt(k0**2 - (math.pi / (A * 1e-3)) ** 2)


def test_wr90_two_port_job_and_touchstone(engine, tmp_path):
    mesh = wr90_job(tmp_path, animate=True, animationFrames=10)
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    res = json.loads((tmp_path / "results.json").read_text())
    info = res["solver_info"]
    assert info["analysis"] == "fullwave" and info["frequency"] == 10e9 and info["element_order"] == 3
    sp = res["s_parameters"]
    assert sp["frequencies"] == [7.6e9, 10e9, 12.4e9] and sp["port_ids"] == ["1", "2"]
    for k, f in enumerate(sp["frequencies"]):
        s = np.array([[complex(*v) for v in row] for row in sp["matrix"][k]])
        err = (math.degrees(cmath.phase(s[1, 0]) + beta(f) * L * 1e-3) + 180) % 360 - 180
        print(
            f"job WR-90 {f / 1e9:.1f} GHz: |S11| {20 * math.log10(abs(s[0, 0])):.1f} dB, ∠S21 error {err:+.3f}°"
        )
        assert abs(s[0, 0]) < 0.01 and abs(abs(s[1, 0]) - 1) < 1e-3 and abs(err) < 0.5
    port = res["ports"][0]
    assert port["shape"] == "rectangle" and port["mode"] == "TE10"
    assert abs(port["dimensions_m"]["a"] - 0.02286) < 1e-12
    assert abs(port["cutoff_frequency_hz"] - 6.557140e9) < 1e3
    assert abs(port["beta_rad_per_m"] - 158.238) < 1e-3
    assert res["ports"][1]["reference_plane"]["normal"] == [0.0, 0.0, 1.0]
    # Fields: 1 W in TE10 → peak E at the guide centre E0 = √(4·Z_TE·P/(a·b)).
    e = np.asarray(res["field_magnitudes"]["e_magnitudes"]["data"])
    assert len(e) == len(mesh["vertices"])
    e0 = math.sqrt(4 * 498.97 * 1.0 / (A * B * 1e-6))
    print(f"peak |E| {e.max():.1f} V/m, TE10 1 W amplitude {e0:.1f} V/m")
    assert abs(e.max() - e0) / e0 < 0.02
    assert res["animation"]["frames"] == 10 and len(res["animation"]["data"]) == 10
    # Exports: a standard reader gets the same numbers.
    skrf = pytest.importorskip("skrf")
    net = skrf.Network(str(tmp_path / "sparameters.s2p"))
    assert net.nports == 2 and list(net.f) == [7.6e9, 10e9, 12.4e9]
    s_file = net.s[1]
    s_res = np.array([[complex(*v) for v in row] for row in sp["matrix"][1]])
    assert np.allclose(s_file, s_res, atol=1e-11)
    csv = (tmp_path / "sparameters.csv").read_text().splitlines()
    assert csv[0].startswith("frequency_hz,S11_re,S11_im,S11_db,S11_deg,S12_re") and len(csv) == 4


@pytest.mark.parametrize("solver", ["auto", "gmres-bddc"])  # direct (small) and LOBPCG (eigen_iterative.py)
def test_em_eigen_job_on_uploaded_box(engine, tmp_path, solver):
    mesh = box_mesh((22.86, 10.16, 50.0), (4, 2, 8))
    mesh["units"] = "mm"
    config = {
        "analysisType": "em-eigen",
        "linearSolver": solver,
        "meshOrder": 2,
        "eigenNumModes": 2,
        "gridFieldsEnabled": True,
        "gridResolution": [5, 3, 3],
        "gridPaddingFactor": 0.0,
    }
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    res = json.loads((tmp_path / "results.json").read_text())
    f = [m["frequency_hz"] for m in res["eigenmodes"]]
    errs = [(f[0] - 7.209968e9) / 7.209968e9, (f[1] - 8.885173e9) / 8.885173e9]
    info = res["solver_info"]
    assert info["linear_solver"] == ("direct" if solver == "auto" else "iterative")
    if solver != "auto":  # iterations and a residual per mode, each within LOBPCG's tolerance
        print(
            f"eigen job ({solver}): {info['eigen_iterations']} LOBPCG iterations, residuals {info['eigen_residuals']}"
        )
        assert info["eigen_iterations"] > 0 and len(info["eigen_residuals"]) == 2
        assert max(info["eigen_residuals"]) <= info["eigen_tolerance"]
    print(
        f"eigen job ({solver}): TE101 {f[0] / 1e9:.5f} GHz ({errs[0]:+.3%}), TE102 {f[1] / 1e9:.5f} GHz ({errs[1]:+.3%})"
    )
    assert all(abs(x) < 0.01 for x in errs)
    e = np.asarray(res["field_magnitudes"]["e_magnitudes"]["data"])
    assert abs(e.max() - 1.0) < 1e-9
    # grid fields of TE101 (peak 1 V/m): |E| = sin(πx/a)·sin(πz/d), sampled at z = d/2 across x
    grid = np.asarray(res["grid"]["fields"]["e_magnitude"]).reshape(5, 3, 3)
    exact = np.sin(np.pi * np.linspace(0, 1, 5))
    err = np.max(np.abs(grid[:, 1, 1] - exact))
    print(f"eigen job grid fields: TE101 |E| across x at the centre, max error {err:.2e} V/m (peak 1 V/m)")
    assert err < 0.03 and "warnings" not in res["solver_info"]


@pytest.mark.parametrize(
    "solver", ["auto", "gmres-bddc"]
)  # direct and Arnoldi + GMRES (eigen_shift_invert.py)
def test_lossy_em_eigen_job_gives_q(engine, tmp_path, solver):
    """A box filled with a tanδ = 1e-3 dielectric through the engine CLI: Q = 1/tanδ on both paths (exactly
    Re s / (2 Im s), s = (1 − j·tanδ)^(−1/2)), f = TE101 · Re s up to the coarse mesh's error."""
    mesh = box_mesh((22.86, 10.16, 50.0), (4, 2, 8))
    mesh["units"] = "mm"
    config = {
        "analysisType": "em-eigen",
        "linearSolver": solver,
        "meshOrder": 2,
        "eigenNumModes": 1,
        "bodyMaterials": [{"region": 0, "relativePermittivity": 1.0, "lossTangent": 1e-3}],
    }
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    res = json.loads((tmp_path / "results.json").read_text())
    mode = res["eigenmodes"][0]
    s = (1 - 1e-3j) ** -0.5
    q_exact = s.real / (2 * s.imag)
    f_err = mode["frequency_hz"] / (7.209968e9 * s.real) - 1
    q_err = mode["q_factor"] / q_exact - 1
    info = res["solver_info"]
    print(
        f"lossy eigen job ({solver}, {info['linear_solver']}): TE101 {mode['frequency_hz'] / 1e9:.5f} GHz "
        f"({f_err:+.3%}), Q {mode['q_factor']:.4f} (exact {q_exact:.4f}, {q_err:+.1e})"
    )
    assert info["linear_solver"] == ("direct" if solver == "auto" else "iterative")
    if solver != "auto":
        assert info["inner_solves"] > 0 and max(info["eigen_residuals"]) < 1e-6
    assert abs(f_err) < 0.01 and abs(q_err) < 1e-6


def test_bad_port_config_is_refused(engine, tmp_path):
    wr90_job(tmp_path)
    job = json.loads((tmp_path / "job.json").read_text())
    job["config"]["wavePorts"][0]["mode"] = "TEM"
    (tmp_path / "job.json").write_text(json.dumps(job))
    final = engine("solve", tmp_path)[-1]
    assert final["event"] == "error" and "TEM mode needs two conductors" in final["message"]
    assert not (tmp_path / "results.json").exists()


@pytest.mark.parametrize(
    ("ports", "expected"),
    [(True, "Wave port 1 lies on a metal body"), (False, "Every body of the model is metal")],
)
def test_a_metal_filled_model_is_refused_with_the_reason(engine, tmp_path, ports, expected):
    """A copper-filled guide (the form's library fill left on copper) has no field region: metal is
    PEC on this path. It failed with a bare "UmfpackInverse: Numeric factorization failed"."""
    wr90_job(tmp_path)
    job = json.loads((tmp_path / "job.json").read_text())
    job["config"].update(defaultConductivity=5.8e7, meshOrder=1, calculateSParameters=False)
    if not ports:
        job["config"].update(useWavePorts=False, wavePorts=[], mode="fullwave")
    (tmp_path / "job.json").write_text(json.dumps(job))
    final = engine("solve", tmp_path)[-1]
    assert final["event"] == "error" and expected in final["message"], final
    assert "air or a dielectric" in final["message"]
    assert not (tmp_path / "results.json").exists()


def test_uploaded_coax_one_port_renormalised_to_100_ohm(engine, tmp_path):
    """RG-401 as uploaded tetrahedra (curved on request), a TEM port at z=0 and a matched load
    (impedance wall Z = η0/√εr) at z=L; voltage_current renormalised to 100 Ω: |S11| = −9.54 dB."""
    from fieldline_engine.em.constants import ETA0
    from fieldline_engine.testing.rf_meshes import RG401_EPS_R, coax_mesh

    length = 0.005
    ng_mesh = coax_mesh(length, maxh=0.002, curvature_safety=2.0)
    verts = [list(p.point) for p in ng_mesh.vertices]
    tets = [[v.nr for v in el.vertices] for el in ng_mesh.Elements()]
    faces = [[v.nr for v in el.vertices] for el in ng_mesh.Elements(ng_bnd())]
    mesh = {"vertices": verts, "tetrahedra": tets, "faces": faces}
    z = np.asarray(verts)[:, 2]
    f = np.asarray(faces)
    port_faces = (np.nonzero(np.all(np.abs(z[f]) < 1e-12, axis=1))[0] + 1).tolist()
    load_faces = (np.nonzero(np.all(np.abs(z[f] - length) < 1e-12, axis=1))[0] + 1).tolist()
    z_load = ETA0 / math.sqrt(RG401_EPS_R)
    config = {
        "analysisType": "em",
        "frequency": 10e9,
        "meshOrder": 2,
        "useCurvedGeometry": True,  # straight polygons would give Z ≈ 54.6 Ω on this coarse mesh
        "bodyMaterials": [{"region": 0, "relativePermittivity": RG401_EPS_R}],
        "useWavePorts": True,
        "wavePorts": [{"portID": 1, "faces": port_faces, "mode": "TEM"}],
        "impedanceConditions": [{"faces": load_faces, "impedance": {"real": z_load, "imag": 0}}],
        "calculateSParameters": True,
        "sParamFreqMin": 10e9,
        "sParamFreqMax": 10e9,
        "sParamNumPoints": 1,
        "sParamMethod": "voltage_current",
        "portImpedance": 100,
    }
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    res = json.loads((tmp_path / "results.json").read_text())
    sp = res["s_parameters"]
    s11 = complex(*sp["matrix"][0][0][0])
    z_vi = sp["line_impedances_ohm"][0][0]["z_vi_ohm"]
    s11_db = 20 * math.log10(abs(s11))
    print(
        f"uploaded coax: Z_VI {z_vi:.3f} Ω, |S11| at 100 Ω {s11_db:.3f} dB (−9.54), curved {res['solver_info']['curved_geometry']}"
    )
    assert res["ports"][0]["shape"] == "coax" and res["ports"][0]["mode"] == "TEM"
    assert res["solver_info"]["curved_geometry"]["curved"] is True
    assert abs(z_vi - 50.05) / 50.05 < 0.01
    assert abs(s11_db + 9.54) < 0.1
    assert sp["reference_impedance_ohm"] == 100


def ng_bnd():
    import ngsolve as ng

    return ng.BND


def test_wr90_grid_fields_match_the_te10_closed_form(engine, tmp_path):
    """gridFieldsEnabled on the full-wave path: |E| on a grid across the guide follows
    E0·sin(πx/a), E0 = √(4·Z_TE·P/(a·b)) for the 1 W incident TE10 wave (port 2 is a matched load)."""
    wr90_job(
        tmp_path,
        calculateSParameters=False,
        gridFieldsEnabled=True,
        gridResolution=[5, 3, 5],
        gridPaddingFactor=0.0,
    )
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    res = json.loads((tmp_path / "results.json").read_text())
    assert "warnings" not in res["solver_info"]
    grid = res["grid"]
    assert grid["resolution"] == [5, 3, 5] and grid["points"] == 75
    assert grid["bounds"]["max"] == pytest.approx([A, B, L])  # model units (mm)
    mag = np.asarray(grid["fields"]["e_magnitude"]).reshape(5, 3, 5)
    f = 10e9
    z_te = 376.730313 * (2 * math.pi * f / C0) / beta(f)
    e0 = math.sqrt(4 * z_te * 1.0 / (A * 1e-3 * B * 1e-3))
    x = np.linspace(0, A, 5)
    exact = e0 * np.sin(np.pi * x / A)
    centre_line = mag[:, 1, 1:4]  # y = b/2, away from the port faces
    err = np.max(np.abs(centre_line - exact[:, None])) / e0
    print(f"full-wave grid fields: TE10 |E| across the guide, max error {err:.2e} of E0 = {e0:.1f} V/m")
    assert err < 0.02
    assert np.asarray(grid["fields"]["h_magnitude"]).max() > 0


def test_wr90_adaptive_sweep_job(engine, tmp_path):
    """sParamSweepType 'adaptive' through the engine command: closed-form S21 at every point from
    fewer full solves than points, and the sweep's report in solver_info."""
    wr90_job(tmp_path, sParamNumPoints=41, sParamSweepType="adaptive", sParamAdaptiveTolerance=1e-4)
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    res = json.loads((tmp_path / "results.json").read_text())
    sweep = res["solver_info"]["frequency_sweep"]
    sp = res["s_parameters"]
    worst = 0.0
    for k, f in enumerate(sp["frequencies"]):
        s21 = complex(*sp["matrix"][k][1][0])
        err = (math.degrees(cmath.phase(s21) + beta(f) * L * 1e-3) + 180) % 360 - 180
        worst = max(worst, abs(err))
        assert abs(abs(s21) - 1) < 1e-3
    print(
        f"job adaptive sweep: {sweep['full_solves']} full solves for {len(sp['frequencies'])} points, "
        f"indicator {sweep['error_estimate']:.1e}, max ∠S21 error {worst:.3f}°"
    )
    assert sweep["type"] == "adaptive" and sweep["tolerance"] == 1e-4 and sweep["converged"]
    assert sweep["full_solves"] < 10 and len(sweep["sampled_frequencies"]) == sweep["full_solves"]
    assert sweep["error_estimate"] <= 1e-4 and worst < 0.5


def test_adaptive_sweep_fallback_is_reported_in_the_warnings(engine, tmp_path):
    wr90_job(tmp_path, meshOrder=1, sParamSweepType="adaptive")  # 3 points: too few to gain anything
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    info = json.loads((tmp_path / "results.json").read_text())["solver_info"]
    print(f"fallback: {info['frequency_sweep']}")
    assert info["frequency_sweep"]["type"] == "uniform" and info["frequency_sweep"]["requested"] == "adaptive"
    assert info["frequency_sweep"]["full_solves"] == 3
    assert any("adaptive sweep needs at least 6 points" in w for w in info["warnings"])
