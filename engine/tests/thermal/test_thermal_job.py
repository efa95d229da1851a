"""The thermal analyses as jobs: named fields in results.json and results.bin, bad input refused naming the
field, and nothing written for a refused run."""

import json

import pytest

from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane
from fieldline_engine.thermal.analysis import ThermalAnalysis, ThermalTimeAnalysis

MESH = box_mesh((0.1, 0.02, 0.02), (5, 1, 1))
LEFT, RIGHT = faces_on_plane(MESH, 0, 0.0), faces_on_plane(MESH, 0, 0.1)
TOP = faces_on_plane(MESH, 2, 0.02)


def refusal(config, transient=False) -> str:
    analysis = ThermalTimeAnalysis() if transient else ThermalAnalysis()
    with pytest.raises(InvalidInput) as err:
        analysis.solve(model_from_mesh_data(MESH), {"analysisType": analysis.analysis_type, **config}, SILENT)
    print(f"refusal: {err.value.message}")
    return err.value.message


def test_bad_input_is_refused_naming_the_field():
    assert "must be above 0 K" in refusal({"temperatureConditions": [{"faces": LEFT, "temperature": -5}]})
    assert "convection coefficient must be positive" in refusal(
        {"convectionConditions": [{"faces": LEFT, "coefficient": 0, "ambientTemperature": 300}]}
    )
    assert "emissivity must be above 0 and at most 1" in refusal(
        {"radiationConditions": [{"faces": LEFT, "emissivity": 1.2, "ambientTemperature": 300}]}
    )
    assert "thermalConductivity must be positive" in refusal(
        {"thermalConductivity": -1, "temperatureConditions": [{"faces": LEFT, "temperature": 300}]}
    )
    assert "heatCapacity must be positive" in refusal(
        {
            "bodyMaterials": [{"region": 0, "heatCapacity": 0}],
            "temperatureConditions": [{"faces": LEFT, "temperature": 300}],
        }
    )
    assert refusal({"temperatureConditions": [{"faces": [], "temperature": 300}]}) == (
        "Temperature condition 1 has no faces. Pick at least one face."
    )
    assert (
        refusal(
            {
                "temperatureConditions": [{"faces": LEFT, "temperature": 300}],
                "convectionConditions": [{"faces": [LEFT[0]], "coefficient": 5, "ambientTemperature": 300}],
            }
        )
        == f"Face {LEFT[0]} is used by both Temperature condition 1 and Convection 1."
    )
    assert "undetermined" in refusal({"neumannConditions": [{"faces": LEFT, "flux": 100}]})
    assert "timeStep (10 s) is larger than endTime (1 s)" in refusal(
        {"timeStep": 10, "endTime": 1, "temperatureConditions": [{"faces": LEFT, "temperature": 300}]},
        transient=True,
    )
    assert "Joule heating needs the conduction setup" in refusal(
        {"jouleHeating": True, "temperatureConditions": [{"faces": LEFT, "temperature": 300}]}
    )


def test_transient_job_writes_temperature_frames_and_the_probe_history(engine, tmp_path):
    config = {
        "analysisType": "thermal",
        "transient": True,  # the form's Transient switch: thermal → thermal-time
        "timeStep": 5.0,
        "endTime": 100.0,
        "timeScheme": "implicit",
        "animationFrames": 10,
        "thermalConductivity": 50.0,
        "density": 7850.0,
        "heatCapacity": 470.0,
        "initialTemperature": 293.15,
        "temperatureConditions": [{"faces": LEFT, "temperature": 373.15, "name": "heater"}],
        "convectionConditions": [{"faces": TOP, "coefficient": 20, "ambientTemperature": 293.15}],
        "probePoints": [{"name": "tip", "point": [0.1, 0.01, 0.01]}],
    }
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": MESH, "config": config}))
    assert engine("solve", tmp_path)[-1]["event"] == "done"
    res = json.loads((tmp_path / "results.json").read_text())
    assert list(res["fields"]) == ["temperature", "heat_flux", "temperature_gradient"]
    assert res["fields"]["temperature"]["unit"] == "K" and res["fields"]["heat_flux"]["unit"] == "W/m^2"
    assert (
        res["solver_info"]["analysis"] == "thermal-time"
        and res["solver_info"]["time_scheme"] == "backward-euler"
    )
    anim = res["animation"]
    assert anim["axis"] == "time" and anim["frames"] == 10 and anim["fields"] == ["temperature"]
    history = res["thermal_history"]
    tip = history["probes"][0]["temperature"]
    assert len(tip) == 21 and tip[0] == pytest.approx(293.15) and 293.15 < tip[-1] < 373.15
    q = res["quantities"]
    assert q["energy_balance_error"] < 1e-6
    assert q["heat_flows"][0] == {
        "condition": "heater",
        "kind": "temperature",
        "heat_flow_W": pytest.approx(q["heat_flows"][0]["heat_flow_W"]),
    }
    blob = (tmp_path / "results.bin").read_bytes()
    header = json.loads(blob[12 : 12 + int.from_bytes(blob[8:12], "little")])
    assert header["animation"]["axis"] == "time" and "frames/9/temperature" in header["arrays"]
    print(
        f"transient job: tip {tip[-1] - 273.15:.2f} °C after 100 s, energy balance {q['energy_balance_error']:.1e}"
    )


@pytest.mark.parametrize("transient", [False, True])
def test_a_probe_outside_the_model_is_left_out_with_a_warning(transient):
    """Not "Internal solver error: NgException: Meshpoint not in mesh!" (what a run said before)."""
    analysis = ThermalTimeAnalysis() if transient else ThermalAnalysis()
    config = {
        "analysisType": analysis.analysis_type,
        "temperatureConditions": [{"faces": LEFT, "temperature": 373.15}],
        "convectionConditions": [{"faces": TOP, "coefficient": 20, "ambientTemperature": 293.15}],
        "probePoints": [
            {"name": "tip", "point": [0.09, 0.01, 0.01]},
            {"name": "beyond", "point": [0.2, 0.01, 0.01]},
        ],
        **({"timeStep": 10.0, "endTime": 30.0} if transient else {}),
    }
    sol = analysis.solve(model_from_mesh_data(MESH), config, SILENT)
    assert "Probe beyond at [0.2, 0.01, 0.01] is outside the model and was left out." in sol.warnings
    probes = sol.extras["thermal_history"]["probes"] if transient else sol.quantities["probes"]
    assert [p["name"] for p in probes] == ["tip"]
