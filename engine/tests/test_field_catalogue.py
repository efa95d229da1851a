"""Named result fields end to end (docs/multiphysics.md §1): the catalogue in results.json, the spec's EM
keys written from it, and a DC conduction run's current density against σV/L."""

import json

import numpy as np

from fieldline_engine.testing.meshes import box_mesh, faces_on_plane

L, W, H = 0.1, 0.01, 0.02
SIGMA, VOLTS = 5.8e7, 0.25


def _run(engine, tmp_path, mesh, config):
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
    final = engine("solve", tmp_path)[-1]
    assert final["event"] == "done", final
    return json.loads((tmp_path / "results.json").read_text())


def test_resistor_bar_current_density_is_sigma_v_over_l(engine, tmp_path):
    mesh = box_mesh((L, W, H), (8, 2, 2))
    config = {
        "analysisType": "em",
        "defaultConductivity": SIGMA,
        "meshOrder": 2,
        "dirichletFaceConditions": [
            {"faces": faces_on_plane(mesh, 0, 0.0), "voltage": VOLTS},
            {"faces": faces_on_plane(mesh, 0, L), "voltage": 0.0},
        ],
    }
    results = _run(engine, tmp_path, mesh, config)
    fields = results["fields"]
    assert list(fields) == [
        "electric_field",
        "magnetic_field",
        "potential",
        "current_density",
        "joule_heat_density",
    ]
    j = fields["current_density"]
    assert (j["unit"], j["kind"], j["location"], j["complex"]) == ("A/m^2", "vector", "vertex", False)
    assert fields["potential"]["unit"] == "V"
    jx = np.asarray(j["data"])[:, 0]
    expected = SIGMA * VOLTS / L
    error = float(np.max(np.abs(jx - expected)) / expected)
    transverse = float(np.max(np.abs(np.asarray(j["data"])[:, 1:])) / expected)
    print(
        f"resistor bar J_x = σV/L = {expected:.6e} A/m²: max relative error {error:.2e}, transverse {transverse:.1e}"
    )
    assert error < 1e-6 and transverse < 1e-6
    # The spec's keys are written from the catalogue: the same numbers.
    assert np.allclose(
        [results["efields"]["data"][str(i)] for i in range(len(results["vertices"]))],
        fields["electric_field"]["data"],
    )
    assert np.allclose(
        results["field_magnitudes"]["e_magnitudes"]["data"],
        np.linalg.norm(fields["electric_field"]["data"], axis=1),
    )
    assert np.allclose(results["potential"]["data"], fields["potential"]["data"])
    assert np.allclose(results["jfields"]["data"]["0"], fields["current_density"]["data"][0])


def test_quasistatic_fields_are_phasors_with_an_imaginary_part(engine, tmp_path):
    mesh = box_mesh((L, W, H), (4, 1, 1))
    config = {
        "analysisType": "em",
        "frequency": 1e6,
        "defaultConductivity": 1.0,
        "dirichletFaceConditions": [
            {"faces": faces_on_plane(mesh, 0, 0.0), "voltage": 1.0},
            {"faces": faces_on_plane(mesh, 0, L), "voltage": 0.0},
        ],
    }
    results = _run(engine, tmp_path, mesh, config)
    e = results["fields"]["electric_field"]
    assert e["complex"] is True and len(e["imag"]) == len(e["data"]) == len(results["vertices"])
    assert results["complex_fields"] is True and "efields_imag" in results


def test_dc_conduction_writes_the_joule_heat_density_per_tetrahedron(engine, tmp_path):
    """σ|E|² per tetrahedron integrates to the dissipated power V²/R = σ V² A / L."""
    mesh = box_mesh((L, W, H), (8, 2, 2))
    config = {
        "analysisType": "em",
        "defaultConductivity": SIGMA,
        "dirichletFaceConditions": [
            {"faces": faces_on_plane(mesh, 0, 0.0), "voltage": VOLTS},
            {"faces": faces_on_plane(mesh, 0, L), "voltage": 0.0},
        ],
    }
    results = _run(engine, tmp_path, mesh, config)
    q = results["fields"]["joule_heat_density"]
    assert (q["unit"], q["location"], q["kind"]) == ("W/m^3", "cell", "scalar")
    assert len(q["data"]) == len(results["tetrahedra"])
    power = float(np.sum(np.asarray(q["data"]) * _tet_volumes(results)))
    exact = SIGMA * VOLTS**2 * W * H / L
    print(
        f"Joule power from the cell field {power:.6e} W vs σV²A/L {exact:.6e} W: {abs(power / exact - 1):.1e}"
    )
    assert abs(power / exact - 1) < 1e-9


def _tet_volumes(results) -> np.ndarray:
    v = np.asarray(results["vertices"])[np.asarray(results["tetrahedra"])]
    return (
        np.abs(np.einsum("ij,ij->i", np.cross(v[:, 1] - v[:, 0], v[:, 2] - v[:, 0]), v[:, 3] - v[:, 0])) / 6
    )
