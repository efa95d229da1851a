"""results.json carries the analysis config the job ran with (analysis_config), so a saved results file
says what produced it and the environment can restore the form from it."""

import json

from fieldline_engine.commands.solve import MAX_RECORDED_VALUE_CHARS, recorded_config
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane


def test_static_results_carry_the_config_they_ran_with(engine, tmp_path):
    mesh = box_mesh((0.004, 0.004, 0.002), (2, 2, 2))
    bottom, top = faces_on_plane(mesh, 2, 0.0), faces_on_plane(mesh, 2, 0.002)
    config = {
        "analysisType": "em",
        "mode": "electro",
        "frequency": 0,
        "meshOrder": 2,
        "linearSolver": "direct",
        "defaultPermittivity": 2.2 * 8.854e-12,
        "dirichletFaceConditions": [
            {"faces": bottom, "voltage": 0.0, "name": "ground"},
            {"faces": top, "voltage": 5.0, "name": "signal"},
        ],
        "meshingOnly": False,
        "meshMaxSize": 0.001,
        "gridResolution": [10, 10, 10],
    }
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    results = json.loads((tmp_path / "results.json").read_text())
    recorded = results["analysis_config"]
    # exactly what the engine received, less the meshing-only controls
    expected = {k: v for k, v in config.items() if k not in ("meshingOnly", "meshMaxSize")}
    assert recorded == expected
    assert results["quantities"]["capacitance_F"] > 0  # the run itself is unchanged


def test_recorded_config_drops_oversized_extras_but_keeps_the_forms_lists():
    big = list(range(MAX_RECORDED_VALUE_CHARS))
    faces = list(range(1, 3000))
    kept = recorded_config(
        {
            "frequency": 1e9,
            "someClientBlob": big,
            "dirichletFaceConditions": [{"faces": faces, "voltage": 1}],
            "meshElementsPerCircle": 12,
        }
    )
    assert kept == {"frequency": 1e9, "dirichletFaceConditions": [{"faces": faces, "voltage": 1}]}
