"""Chained and coupled runs as jobs, the way the server runs them: the worker writes the source job's fields
into fields_from.json beside job.json (server/src/jobs/fields-from.ts); the engine takes them as the thermal
load, the initial state or the prestress, and the results say where they came from."""

import json

import numpy as np
import pytest

from fieldline_engine.errors import InvalidInput
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane

MESH = box_mesh((0.1, 0.02, 0.02), (6, 2, 2))
LEFT, RIGHT = faces_on_plane(MESH, 0, 0.0), faces_on_plane(MESH, 0, 0.1)
TOP = faces_on_plane(MESH, 2, 0.02)
STEADY = {
    "analysisType": "thermal",
    "thermalConductivity": 50.0,
    "temperatureConditions": [{"faces": LEFT, "temperature": 373.15, "name": "heater"}],
    "convectionConditions": [{"faces": TOP, "coefficient": 25, "ambientTemperature": 293.15}],
}


def run(engine, job_dir, config, fields_from=None):
    job_dir.mkdir()
    (job_dir / "job.json").write_text(json.dumps({"mesh_data": MESH, "config": config}))
    if fields_from is not None:
        (job_dir / "fields_from.json").write_text(json.dumps(fields_from))
    events = engine("solve", job_dir)
    return events, (
        json.loads((job_dir / "results.json").read_text()) if events[-1]["event"] == "done" else None
    )


def handed(results, name, source):
    """What the worker writes: the named field of the source's stored results."""
    entry = results["fields"][name]
    return {
        "source": source,
        "fields": {name: {k: entry[k] for k in ("label", "unit", "kind", "location", "data")}},
    }


def test_transient_chained_from_a_steady_run_starts_exactly_at_its_temperatures(engine, tmp_path):
    _, steady = run(engine, tmp_path / "steady", {**STEADY, "meshOrder": 2})
    source = {"job_id": "00000000-0000-4000-8000-000000000001", "analysis": "thermal"}
    transient = {
        **STEADY,
        "analysisType": "thermal-time",
        "meshOrder": 2,
        "timeStep": 2.0,
        "endTime": 20.0,
        "animationFrames": 10,
        "density": 7850.0,
        "heatCapacity": 470.0,
        "temperatureConditions": [{"faces": LEFT, "temperature": 323.15, "name": "heater"}],
    }
    _, res = run(engine, tmp_path / "transient", transient, handed(steady, "temperature", source))
    start = np.asarray(res["animation"]["data"][0]["temperature"])
    expected = np.asarray(steady["fields"]["temperature"]["data"])
    difference = float(np.max(np.abs(start - expected)))
    print(f"chained transient: max |T(t=0) − T_steady| = {difference:.2e} K")
    assert res["animation"]["frame_values"][0] == 0.0 and difference <= 1e-12
    # The heater was turned down: the part cools from the steady state.
    assert np.max(res["animation"]["data"][-1]["temperature"]) < np.max(expected)
    assert res["solver_info"]["fields_from"]["temperature"]["job_id"] == source["job_id"]
    assert res["thermal_history"]["initial_state"] == "fields_from"
    assert "_givenFields" not in res["analysis_config"]


def test_structural_chained_from_a_thermal_job_matches_the_coupled_job(engine, tmp_path):
    """A structural run loaded by a thermal job's temperature gives the stresses of the one-job
    thermal-structural run with the same keys (same mesh, same temperature)."""
    supports = {
        "fixedSupports": [{"faces": LEFT}],
        "referenceTemperature": 293.15,
        "meshOrder": 2,
    }
    _, coupled = run(
        engine, tmp_path / "coupled", {**STEADY, **supports, "analysisType": "thermal-structural"}
    )
    _, steady = run(engine, tmp_path / "steady", {**STEADY, "meshOrder": 2})
    source = {"job_id": "00000000-0000-4000-8000-000000000002", "analysis": "thermal"}
    _, chained = run(
        engine,
        tmp_path / "chained",
        {"analysisType": "structural", **supports},
        handed(steady, "temperature", source),
    )
    a = np.asarray(coupled["fields"]["von_mises"]["data"])
    b = np.asarray(chained["fields"]["von_mises"]["data"])
    print(f"coupled vs chained von Mises: max difference {np.max(np.abs(a - b)) / np.max(a):.1e} of the peak")
    assert np.max(np.abs(a - b)) <= 1e-9 * np.max(a)
    # The coupled job carries both families' fields and quantities.
    assert {"temperature", "heat_flux", "displacement", "von_mises", "stress"} <= set(coupled["fields"])
    q = coupled["quantities"]
    assert q["max_temperature_K"] == pytest.approx(373.15) and q["max_von_mises_Pa"] > 0
    assert q["reactions"][0]["support"] == "Fixed support 1"
    assert coupled["solver_info"]["analysis"] == "thermal-structural"
    assert set(coupled["solver_info"]["steps"]) == {"thermal", "structural"}
    assert chained["solver_info"]["fields_from"]["temperature"]["job_id"] == source["job_id"]


def test_a_field_of_the_wrong_size_is_refused(engine, tmp_path):
    given = {
        "source": {},
        "fields": {"temperature": {"kind": "scalar", "location": "vertex", "data": [300.0] * 5}},
    }
    events, res = run(
        engine,
        tmp_path / "bad",
        {"analysisType": "structural", "fixedSupports": [{"faces": LEFT}], "meshOrder": 2},
        given,
    )
    assert res is None and events[-1]["event"] == "error"
    assert "has 5 vertex values; this model has" in events[-1]["message"]


def test_unloaded_structural_refusal_names_the_thermal_load():
    from fieldline_engine.mesh.tet_model import model_from_mesh_data
    from fieldline_engine.protocol import SILENT
    from fieldline_engine.structural.analysis import StructuralAnalysis

    with pytest.raises(InvalidInput, match="a thermal load"):
        StructuralAnalysis().solve(
            model_from_mesh_data(MESH),
            {"analysisType": "structural", "fixedSupports": [{"faces": LEFT}]},
            SILENT,
        )
