"""The static / quasi-static `em` job through the engine CLI, as the server runs it: boundary conditions by
face groups, materials, derived quantities, grid fields, phase frames and the results shape."""

import json
import math

import numpy as np
import pytest

from fieldline_engine.em.constants import EPS0
from fieldline_engine.em.routing import em_solver_for
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane

L, W, H = 0.02, 0.004, 0.002  # bar along x: length L, cross-section W × H


def run(engine, tmp_path, mesh, config):
    (tmp_path / "job.json").write_text(
        json.dumps({"mesh_data": mesh, "config": {"analysisType": "em", **config}})
    )
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    return json.loads((tmp_path / "results.json").read_text()), events


def bar():
    mesh = box_mesh((L, W, H), (10, 2, 2))
    return mesh, faces_on_plane(mesh, 0, 0.0), faces_on_plane(mesh, 0, L)


def test_resistor_bar_resistance_current_and_magnetic_field(engine, tmp_path):
    mesh, left, right = bar()
    sigma = 5.8e7
    config = {
        "defaultConductivity": sigma,
        "dirichletFaceConditions": [
            {"faces": left, "voltage": 0.0, "name": "ground"},
            {"faces": right, "voltage": 1e-3, "name": "drive"},
        ],
    }
    results, events = run(engine, tmp_path, mesh, config)
    r_exact = L / (sigma * W * H)
    q = results["quantities"]
    err = abs(q["resistance_ohm"] - r_exact) / r_exact
    print(
        f"[validation] resistor bar R = L/(σA): relative error {err:.2e}, {results['solver_info']['matrix_size']} DOFs"
    )
    assert err < 0.005
    currents = q["terminal_currents_A"]
    assert currents["drive"] == pytest.approx(1e-3 / r_exact, rel=0.005)
    assert currents["ground"] == pytest.approx(-currents["drive"], rel=1e-9)
    assert np.array(q["conductance_matrix_S"]["matrix"]) == pytest.approx(
        np.array([[1, -1], [-1, 1]]) / r_exact, rel=0.005
    )
    info = results["solver_info"]
    assert info["analysis"] == "steady conduction" and info["frequency"] == 0
    assert info["magnetic_dofs"] > 0 and q["magnetic_energy_J"] > 0
    # no insulator, so no electric energy was computed: not reported as a misleading "0 J"
    assert "stored_energy_J" not in q
    j = np.array(results["field_magnitudes"]["j_magnitudes"]["data"])
    assert j == pytest.approx(np.full_like(j, 1e-3 / r_exact / (W * H)), rel=1e-6)
    h = np.array(results["field_magnitudes"]["h_magnitudes"]["data"])
    assert h.max() > 0  # the steady current's field, not zeros
    # Progress is reported through assembly, solve and post-processing.
    messages = [e.get("message", "") for e in events if e["event"] == "progress"]
    assert any("Assembling" in m for m in messages) and any("Magnetic" in m for m in messages)


def test_impedance_face_is_a_lumped_resistor_to_ground(engine, tmp_path):
    mesh, left, right = bar()
    sigma, r_load = 1e3, 2.0
    config = {
        "defaultConductivity": sigma,
        "dirichletFaceConditions": [{"faces": right, "voltage": 1.0, "name": "drive"}],
        "impedanceConditions": [{"faces": left, "impedance": {"real": r_load, "imag": 0}}],
    }
    results, _ = run(engine, tmp_path, mesh, config)
    r_bar = L / (sigma * W * H)
    expected = 1.0 / (r_bar + r_load)
    current = results["quantities"]["terminal_currents_A"]["drive"]
    print(
        f"[validation] bar + 2 Ω impedance to ground: current error {abs(current - expected) / expected:.2e}"
    )
    assert current == pytest.approx(expected, rel=0.005)


def test_neumann_current_injection(engine, tmp_path):
    mesh, left, right = bar()
    sigma, j_in = 1e3, 50.0
    config = {
        "defaultConductivity": sigma,
        "dirichletFaceConditions": [{"faces": left, "voltage": 0.0, "name": "ground"}],
        "neumannConditions": [{"faces": right, "flux": j_in}],
    }
    results, _ = run(engine, tmp_path, mesh, config)
    phi = np.array(results["potential"]["data"])
    x = np.array(results["vertices"])[:, 0]
    exact = j_in * x / sigma  # uniform current density j_in from the injection face to ground
    assert np.max(np.abs(phi - exact)) < 1e-9 * np.max(exact)
    assert results["quantities"]["terminal_currents_A"]["ground"] == pytest.approx(-j_in * W * H, rel=1e-9)


def plate_config(mesh, volts=1.0, **extra):
    return {
        "dirichletFaceConditions": [
            {"faces": faces_on_plane(mesh, 2, 0.0), "voltage": 0.0, "name": "bottom"},
            {"faces": faces_on_plane(mesh, 2, H), "voltage": volts, "name": "top"},
        ],
        **extra,
    }


def test_parallel_plate_order2_anisotropic_and_grid(engine, tmp_path):
    mesh = box_mesh((W, W, H), (3, 3, 2))
    config = plate_config(
        mesh,
        volts=10.0,
        meshOrder=2,
        useCurvedGeometry=True,  # flat faces: the reconstructed geometry leaves a box unchanged
        defaultPermittivity=EPS0,
        useAnisotropicMaterials=True,
        anisotropicMaterials=[{"id": 0, "permittivity": [7, 5, 3]}],
        gridFieldsEnabled=True,
        gridResolutionX=4,
        gridResolutionY=3,
        gridResolutionZ=5,
        gridPaddingFactor=0.2,
    )
    results, _ = run(engine, tmp_path, mesh, config)
    c = results["quantities"]["capacitance_F"]
    exact = 3 * EPS0 * W * W / H  # only ε_zz matters between the plates
    err = abs(c - exact) / exact
    print(f"[validation] anisotropic parallel plate (order 2): C error {err:.2e}")
    assert err < 0.005
    e = np.array(results["field_magnitudes"]["e_magnitudes"]["data"])
    assert np.max(np.abs(e - 10.0 / H)) / (10.0 / H) < 0.005
    assert results["solver_info"]["element_order"] == 2
    assert results["solver_info"]["curved_geometry"]["curved_edges"] == 0
    grid = results["grid"]
    assert grid["resolution"] == [4, 3, 5] and grid["points"] == 60
    inside = np.array(grid["fields"]["inside"], dtype=bool)
    assert 0 < inside.sum() < 60  # the padded box reaches outside the model
    e_grid = np.array(grid["fields"]["e_magnitude"])
    assert np.all(np.abs(e_grid[inside] - 10.0 / H) < 1e-3 * 10.0 / H)
    assert np.all(e_grid[~inside] == 0)
    lo, hi = np.array(grid["bounds"]["min"]), np.array(grid["bounds"]["max"])
    assert lo == pytest.approx(np.array([0, 0, 0]) - 0.2 * np.array([W, W, H]))
    assert hi == pytest.approx(np.array([W, W, H]) * 1.2)


def test_quasistatic_lossy_plate_phasors_and_phase_frames(engine, tmp_path):
    mesh = box_mesh((W, W, H), (2, 2, 2))
    sigma, eps_r, freq = 2e-4, 4.0, 1e6
    config = plate_config(
        mesh,
        frequency=freq,
        defaultConductivity=sigma,
        defaultPermittivity=eps_r * EPS0,
        animate=True,
        animationFrames=12,
    )
    results, _ = run(engine, tmp_path, mesh, config)
    y_exact = (sigma + 2j * math.pi * freq * eps_r * EPS0) * W * W / H
    z = results["quantities"]["impedance_ohm"]
    z_num = complex(z["real"], z["imag"])
    err = abs(z_num * y_exact - 1)
    print(f"[validation] quasi-static lossy plate Z = 1/(G + jωC): relative error {err:.2e}")
    assert err < 1e-6
    assert z["phase_deg"] == pytest.approx(-math.degrees(math.atan2(y_exact.imag, y_exact.real)), abs=1e-4)
    current = results["quantities"]["terminal_currents_A"]["top"]
    assert current["magnitude"] == pytest.approx(abs(y_exact), rel=1e-6)
    assert (
        results["solver_info"]["analysis"] == "quasi-statics" and results["solver_info"]["frequency"] == freq
    )
    assert results["complex_fields"] is True
    # E phasor is real here (in phase with the drive): frames follow |E|·|cos θ|.
    anim = results["animation"]
    assert anim["frames"] == 12 and len(anim["data"]) == 12 and anim["kind"] == anim["axis"] == "phase"
    assert anim["unit"] == "deg" and anim["fields"] == ["electric_field", "magnetic_field"]
    e0 = 1.0 / H
    for frame in anim["data"]:
        theta = math.radians(anim["frame_values"][anim["data"].index(frame)])
        assert np.linalg.norm(frame["electric_field"], axis=1) == pytest.approx(
            e0 * abs(math.cos(theta)), rel=1e-5, abs=1e-6 * e0
        )
    assert len(results["efields_imag"]["data"]) == len(results["vertices"])
    # Total current (conduction + displacement) flows, so H is not zero.
    assert max(results["field_magnitudes"]["h_magnitudes"]["data"]) > 0


def test_maxwell_matrix_from_face_groups(engine, tmp_path):
    mesh = box_mesh((W, W, H), (2, 2, 2))
    config = {
        "defaultPermittivity": EPS0,
        "dirichletFaceConditions": [
            {"faces": faces_on_plane(mesh, 2, 0.0), "voltage": 0.0, "name": "a"},
            {"faces": faces_on_plane(mesh, 2, H), "voltage": 1.0, "name": "b"},
            {"faces": faces_on_plane(mesh, 0, 0.0)[:2], "voltage": 0.0, "name": "c"},
        ],
    }
    results, _ = run(engine, tmp_path, mesh, config)
    entry = results["quantities"]["capacitance_matrix_F"]
    c = np.array(entry["matrix"])
    assert entry["terminals"] == ["a", "b", "c"]
    assert entry["symmetry_error"] < 1e-6
    assert np.max(np.abs(c - c.T)) <= 1e-6 * np.max(np.abs(c))


def test_static_errors_are_clear(engine, tmp_path):
    mesh, left, right = bar()
    config = {
        "dirichletFaceConditions": [{"faces": right, "voltage": 1.0}],
        "impedanceConditions": [{"faces": left, "impedance": {"real": 50, "imag": 0}}],
    }
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
    final = engine("solve", tmp_path)[-1]
    assert final["event"] == "error" and "Impedance conditions need a current" in final["message"]
    config = {"dirichletFaceConditions": [{"faces": right, "voltage": 1.0}], "bodyMaterials": [{"region": 3}]}
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
    final = engine("solve", tmp_path)[-1]
    assert final["event"] == "error" and "no body '3'" in final["message"]
    config = {"dirichletFaceConditions": [{"faces": right, "voltage": 1.0}], "linearSolver": "magic"}
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
    final = engine("solve", tmp_path)[-1]
    assert final["event"] == "error" and "Unknown linear solver" in final["message"]
    assert not (tmp_path / "results.json").exists()


def test_em_route():
    """Static and quasi-static jobs stay here; wave ports, PML and impedance faces go full-wave."""
    assert em_solver_for({"frequency": 0}) == "static"
    assert em_solver_for({"frequency": 0, "impedanceConditions": [{"faces": [1]}]}) == "static"
    assert em_solver_for({"frequency": 1e6}) == "static"  # quasi-static
    assert em_solver_for({"frequency": 1e9, "useRadialPML": True}) == "fullwave"
    assert em_solver_for({"frequency": 1e9, "impedanceConditions": [{"faces": [1]}]}) == "fullwave"
    quasi = {"frequency": 1e9, "impedanceConditions": [{"faces": [1]}], "mode": "quasistatic"}
    assert em_solver_for(quasi) == "static"
    assert em_solver_for({"frequency": 1e9, "mode": "fullwave"}) == "fullwave"


def test_reference_node_grounds_a_current_driven_bar(engine, tmp_path):
    """No Dirichlet condition: current in on one end, out on the other, the reference node sets 0 V."""
    mesh, left, right = bar()
    sigma, j_in = 1e3, 20.0
    vertices = np.array(mesh["vertices"])
    reference = int(np.nonzero((vertices[:, 0] == 0) & (vertices[:, 1] == 0) & (vertices[:, 2] == 0))[0][0])
    config = {
        "defaultConductivity": sigma,
        "neumannConditions": [{"faces": right, "flux": j_in}, {"faces": left, "flux": -j_in}],
        "referenceNode": reference,
        "linearSolver": "cg-amg",
        "tolerance": 1e-12,
    }
    results, _ = run(engine, tmp_path, mesh, config)
    phi = np.array(results["potential"]["data"])
    exact = j_in * vertices[:, 0] / sigma
    assert np.max(np.abs(phi - exact)) < 1e-6 * np.max(exact)
    assert results["solver_info"]["linear_solver"] == "preconditioned CG"
    assert results["solver_info"]["preconditioner"] == "classical AMG (pyamg)"


def test_dc_conductors_insulators_and_a_floating_conductor(engine, tmp_path):
    """Layers along z: conductor at 0 V | air | floating conductor | air | conductor at 1 V. At DC the
    conductors are equipotentials; the floating one settles at 0.5 V and E = 0.5 V per gap in the air."""
    mesh = box_mesh((1.0, 1.0, 5.0), (2, 2, 10))
    v = np.array(mesh["vertices"])
    t = np.array(mesh["tetrahedra"])
    layer = np.floor(v[t].mean(axis=1)[:, 2]).astype(int)  # 0..4
    mesh["tetrahedron_regions"] = layer.tolist()
    mesh["region_names"] = ["ground", "gap1", "floating", "gap2", "drive"]
    config = {
        "defaultConductivity": 0.0,
        "bodyMaterials": [{"region": r, "conductivity": 1e6} for r in (0, 2, 4)],
        "dirichletFaceConditions": [
            {"faces": faces_on_plane(mesh, 2, 0.0), "voltage": 0.0, "name": "low"},
            {"faces": faces_on_plane(mesh, 2, 5.0), "voltage": 1.0, "name": "high"},
        ],
    }
    results, _ = run(engine, tmp_path, mesh, config)
    phi = np.array(results["potential"]["data"])
    z = v[:, 2]
    expected = np.interp(z, [0, 1, 2, 3, 4, 5], [0, 0, 0.5, 0.5, 1, 1])
    err = np.max(np.abs(phi - expected))
    print(f"[validation] DC conductors + floating conductor: max potential error {err:.1e} V")
    assert err < 1e-5
    assert results["quantities"]["floating_conductors"] == [2]
    # ½ε0E²·volume of the two air gaps: E = 0.5 V/m over 1 m³ each
    w = results["quantities"]["stored_energy_J"]
    assert w == pytest.approx(2 * 0.5 * EPS0 * 0.5**2, rel=1e-6)
    assert results["solver_info"]["analysis"] == "steady conduction"
    assert [s["name"] for s in results["solver_info"]["systems"]][:2] == [
        "conduction",
        "electrostatics in insulators",
    ]
    assert abs(results["quantities"]["terminal_currents_A"]["high"]) < 1e-12 * 1e6  # no current path


def test_max_iterations_stops_cg_and_says_so(engine, tmp_path):
    """maxIterations bounds the CG of the static solver; a solve it stops is reported as not converged and
    named in solver_info.warnings (shown in the results panel)."""
    # Finer than bar(): ~1000 free DOFs, so the AMG has coarse levels (below 200 it is an exact solve, and CG
    # would converge in the 2 iterations allowed).
    mesh = box_mesh((L, W, H), (40, 4, 4))
    left, right = faces_on_plane(mesh, 0, 0.0), faces_on_plane(mesh, 0, L)
    config = {
        "dirichletFaceConditions": [{"faces": left, "voltage": 0.0}, {"faces": right, "voltage": 1.0}],
        "linearSolver": "cg-amg",
        "tolerance": 1e-14,
        "maxIterations": 2,
    }
    results, events = run(engine, tmp_path, mesh, config)
    info = results["solver_info"]
    assert info["iterations"] == 2 and info["converged"] is False
    assert any("maxIterations" in w for w in info["warnings"])
    assert any(e["event"] == "log" and "maxIterations" in e["message"] for e in events)

    results, _ = run(engine, tmp_path, mesh, {**config, "tolerance": 1e-8, "maxIterations": 1000})
    info = results["solver_info"]
    assert info["converged"] is True and 2 < info["iterations"] < 1000 and "warnings" not in info
