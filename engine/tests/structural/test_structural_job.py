"""The structural analysis as a job: results in the named-field shape, bad input refused with the face or
the free motions named."""

import json

import pytest

from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.structural.analysis import StructuralAnalysis
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane

MESH = box_mesh((0.2, 0.02, 0.02), (10, 1, 1))
LEFT, RIGHT = faces_on_plane(MESH, 0, 0.0), faces_on_plane(MESH, 0, 0.2)
BOTTOM = faces_on_plane(MESH, 2, 0.0)


def refusal(config) -> str:
    with pytest.raises(InvalidInput) as err:
        StructuralAnalysis().solve(
            model_from_mesh_data(MESH), {"analysisType": "structural", **config}, SILENT
        )
    print(f"refusal: {err.value.message}")
    return err.value.message


def test_an_under_supported_model_is_refused_naming_its_free_motions():
    # Only u_z held on the bottom: the bar can slide in x and y and spin about z.
    message = refusal(
        {
            "displacementConditions": [{"faces": BOTTOM, "displacement": [None, None, 0]}],
            "forceLoads": [{"faces": RIGHT, "force": [0, 0, -10]}],
        }
    )
    assert "can still translate along x and y and rotate about z; add supports" in message
    # Nothing but a symmetry plane x = 0: free in y, z and about x.
    message = refusal(
        {
            "displacementConditions": [{"faces": LEFT, "displacement": [0, None, None]}],
            "forceLoads": [{"faces": RIGHT, "force": [1, 0, 0]}],
        }
    )
    assert "translate along y and z and rotate about x" in message
    # One point held (three constraint rows, fewer than the six rigid motions): it can only turn about it.
    message = refusal(
        {
            "displacementConditions": [{"points": [0], "displacement": [0, 0, 0]}],
            "forceLoads": [{"faces": RIGHT, "force": [1, 0, 0]}],
        }
    )
    assert "can still rotate about x, y and z; add supports" in message


def test_loads_and_supports_on_the_same_face_or_on_no_face_are_refused():
    message = refusal(
        {"fixedSupports": [{"faces": LEFT}], "forceLoads": [{"faces": [LEFT[0], *RIGHT], "force": [0, 0, 1]}]}
    )
    assert message == f"Face {LEFT[0]} is used by both Fixed support 1 and Force load 1."
    assert refusal(
        {"fixedSupports": [{"faces": LEFT}], "forceLoads": [{"faces": [], "force": [0, 0, 1]}]}
    ) == ("Force load 1 has no faces. Pick at least one face.")
    assert "no loads" in refusal({"fixedSupports": [{"faces": LEFT}]})
    assert "poissonRatio must be above −1 and below 0.5" in refusal(
        {"poissonRatio": 0.5, "fixedSupports": [{"faces": LEFT}], "gravity": [0, 0, -9.81]}
    )


def test_material_numbers_are_read_by_one_rule():
    # The shared reader (core/numbers.py): the same wording for a global key and a body's material.
    supported = {"fixedSupports": [{"faces": LEFT}], "gravity": [0, 0, -9.81]}
    assert refusal({"youngsModulus": "stiff", **supported}) == "youngsModulus must be a number."
    assert refusal({"density": "1e999", **supported}) == "density must be a finite number."
    region = model_from_mesh_data(MESH).region_names[0]
    assert (
        refusal({"bodyMaterials": [{"region": region, "youngsModulus": "1e999"}], **supported})
        == f"Body material '{region}': youngsModulus must be a finite number."
    )


def test_job_writes_named_fields_quantities_and_a_safety_factor(engine, tmp_path):
    config = {
        "analysisType": "structural",
        "meshOrder": 2,
        "bodyMaterials": [{"region": 0, "youngsModulus": 70e9, "poissonRatio": 0.33, "yieldStrength": 276e6}],
        "fixedSupports": [{"faces": LEFT, "name": "wall"}],
        "forceLoads": [{"faces": RIGHT, "force": [0, 0, -500]}],
    }
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": MESH, "config": config}))
    assert engine("solve", tmp_path)[-1]["event"] == "done"
    res = json.loads((tmp_path / "results.json").read_text())
    assert list(res["fields"]) == [
        "von_mises",
        "displacement",
        "principal_stress_max",
        "principal_stress_min",
        "stress",
    ]
    assert res["fields"]["displacement"]["role"] == "deformation"
    assert res["fields"]["stress"]["kind"] == "tensor" and res["fields"]["von_mises"]["unit"] == "Pa"
    q = res["quantities"]
    assert q["reactions"][0]["support"] == "wall"
    assert q["reactions"][0]["reaction_N"][2] == pytest.approx(500, rel=1e-6)
    assert q["safety_factor"] == pytest.approx(276e6 / q["max_von_mises_Pa"])
    assert q["max_displacement_location"][0] == pytest.approx(0.2)
    assert res["solver_info"]["analysis"] == "structural" and res["solver_info"]["element_order"] == 2
    print(
        f"job: max |u| {q['max_displacement_m']:.3e} m, max σ_vm {q['max_von_mises_Pa'] / 1e6:.1f} MPa, "
        f"safety factor {q['safety_factor']:.2f}"
    )


def _bottom_line(x: float) -> list[list[int]]:
    """Surface-mesh edges along y at (x, z = 0): a line support across the bar's width."""
    import numpy as np

    v = np.asarray(MESH["vertices"])
    on = np.nonzero(np.isclose(v[:, 0], x) & np.isclose(v[:, 2], 0.0))[0]
    on = on[np.argsort(v[on, 1])]
    return [[int(a), int(b)] for a, b in zip(on[:-1], on[1:], strict=True)]


def test_a_beam_on_two_line_supports_carries_half_the_load_on_each():
    """Pinned line at x = 0 and a roller line (u_z only) at x = L, both on the bottom edge, 100 N down on
    the top: statics gives 50 N up at each line, whatever the mesh. The roller is also given as points."""
    import numpy as np

    top = faces_on_plane(MESH, 2, 0.02)
    roller_points = sorted({v for edge in _bottom_line(0.2) for v in edge})
    for roller in ({"edges": _bottom_line(0.2)}, {"points": roller_points}):
        sol = StructuralAnalysis().solve(
            model_from_mesh_data(MESH),
            {
                "analysisType": "structural",
                "fixedSupports": [{"edges": _bottom_line(0.0), "name": "pin"}],
                "displacementConditions": [{**roller, "displacement": [None, None, 0], "name": "roller"}],
                "forceLoads": [{"faces": top, "force": [0, 0, -100]}],
            },
            SILENT,
        )
        reactions = {r["support"]: np.asarray(r["reaction_N"]) for r in sol.quantities["reactions"]}
        print(f"line supports ({next(iter(roller))}): {reactions}")
        assert reactions["pin"][2] == pytest.approx(50.0, rel=1e-6)
        assert reactions["roller"][2] == pytest.approx(50.0, rel=1e-6)
        assert sol.quantities["reaction_balance_error"] < 1e-8


def test_bad_edges_and_points_are_refused_naming_the_field():
    load = {"forceLoads": [{"faces": RIGHT, "force": [0, 0, -10]}]}
    message = refusal({"fixedSupports": [{"edges": [[0, 10**6]]}], **load})
    assert message.startswith("fixedSupports[0].edges: vertex 1000000 is out of range")
    # Opposite corners of the bar share no surface triangle.
    far = len(MESH["vertices"]) - 1
    message = refusal({"displacementConditions": [{"edges": [[0, far]], "displacement": [0, 0, 0]}], **load})
    assert message.startswith(
        f"displacementConditions[0].edges: [0, {far}] is not an edge of the surface mesh"
    )
    message = refusal({"fixedSupports": [{"faces": LEFT, "points": [0]}], **load})
    assert "give one of faces, edges or points, not faces and points" in message
    message = refusal({"fixedSupports": [{"points": [[0, 1]]}], **load})
    assert "fixedSupports[0].points must be a list of vertex indices" in message
