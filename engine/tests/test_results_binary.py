"""results.bin: the header describes every array, arrays sit at aligned offsets and hold the results' values."""

import json

import numpy as np

from fieldline_engine.post.results_binary import encode_results_binary, triangle_regions
from fieldline_engine.testing.meshes import box_mesh


def read_binary(blob: bytes) -> tuple[dict, dict[str, np.ndarray]]:
    assert blob[:4] == b"FLRB"
    assert int.from_bytes(blob[4:8], "little") == 2
    length = int.from_bytes(blob[8:12], "little")
    header = json.loads(blob[12 : 12 + length])
    arrays = {}
    for name, entry in header["arrays"].items():
        assert entry["offset"] % 16 == 0
        dtype = "<f4" if entry["dtype"] == "float32" else "<u4"
        arr = np.frombuffer(blob, dtype=dtype, count=entry["byte_length"] // 4, offset=entry["offset"])
        arrays[name] = arr.reshape(entry["shape"])
    return header, arrays


def test_round_trip_of_mesh_named_fields_and_frames():
    from fieldline_engine.core.fields import Field, Frames
    from fieldline_engine.core.results import results_from_solution
    from fieldline_engine.core.solution import Solution
    from fieldline_engine.mesh.tet_model import model_from_mesh_data

    mesh = box_mesh((2.0, 1.0, 1.0), (2, 1, 1))
    model = model_from_mesh_data(
        {**mesh, "tetrahedron_regions": [0] * 6 + [1] * 6, "region_names": ["air", "ptfe"], "units": "mm"}
    )
    nv, nt = model.nv, model.nt
    rng = np.random.default_rng(1)
    u = rng.random((nv, 3)) + 1j * rng.random((nv, 3))
    t = rng.random(nv)
    stress = rng.random((nt, 6))
    solution = Solution()
    solution.add_field(Field("temperature", "Temperature", "K", "scalar", t))
    solution.add_field(Field("displacement", "Displacement", "m", "vector", u, role="deformation"))
    solution.add_field(Field("stress", "Stress", "Pa", "tensor", stress, location="cell"))
    solution.animation = Frames(
        "mode",
        [12.5, 30.0],
        [{"displacement": u.real}, {"displacement": -u.real}],
        labels=["mode 1", "mode 2"],
    )
    results = results_from_solution(model, solution)
    header, arrays = read_binary(encode_results_binary(results, "mm"))
    assert header["version"] == 2 and header["units"] == "mm"
    assert header["region_names"] == ["air", "ptfe"]
    assert header["fields"] == {
        "temperature": {
            "label": "Temperature",
            "unit": "K",
            "kind": "scalar",
            "location": "vertex",
            "complex": False,
        },
        "displacement": {
            "label": "Displacement",
            "unit": "m",
            "kind": "vector",
            "location": "vertex",
            "complex": True,
            "role": "deformation",
        },
        "stress": {"label": "Stress", "unit": "Pa", "kind": "tensor", "location": "cell", "complex": False},
    }
    assert header["animation"] == {
        "axis": "mode",
        "unit": "Hz",
        "frame_count": 2,
        "frame_values": [12.5, 30.0],
        "frame_labels": ["mode 1", "mode 2"],
        "fields": ["displacement"],
    }
    np.testing.assert_allclose(arrays["fields/temperature"], t, rtol=1e-6)
    np.testing.assert_allclose(arrays["fields/displacement"], u.real, rtol=1e-6)
    np.testing.assert_allclose(arrays["fields/displacement/imag"], u.imag, rtol=1e-6)
    assert arrays["fields/stress"].shape == (nt, 6)
    np.testing.assert_allclose(arrays["frames/1/displacement"], -u.real, rtol=1e-6)
    np.testing.assert_allclose(arrays["vertices"], np.asarray(mesh["vertices"]), rtol=1e-7)
    np.testing.assert_array_equal(arrays["triangles"], model.faces)
    np.testing.assert_array_equal(arrays["tetrahedra"], model.tetrahedra)
    # Each surface triangle belongs to the body on its side of the box: x < 1 → air, x > 1 → ptfe.
    verts = np.asarray(mesh["vertices"])
    centroid_x = verts[np.asarray(mesh["faces"])].mean(axis=1)[:, 0]
    np.testing.assert_array_equal(arrays["triangle_regions"], (centroid_x > 1.0).astype(np.uint32))


def test_triangle_regions_marks_faces_missing_from_the_volume_as_body_zero():
    tets = np.array([[0, 1, 2, 3]])
    faces = np.array([[1, 2, 3], [0, 1, 4]])
    out = triangle_regions(faces, tets, np.array([5]), 5)
    assert out.tolist() == [5, 0]


def test_solve_writes_results_bin_next_to_results_json(engine, tmp_path):
    from fieldline_engine.testing.meshes import faces_on_plane

    mesh = box_mesh((1.0, 1.0, 1.0), (2, 2, 2))
    config = {
        "analysisType": "em",
        "dirichletFaceConditions": [
            {"faces": faces_on_plane(mesh, 2, 0.0), "voltage": 0.0},
            {"faces": faces_on_plane(mesh, 2, 1.0), "voltage": 1.0},
        ],
    }
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": {**mesh, "units": "cm"}, "config": config}))
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    results = json.loads((tmp_path / "results.json").read_text())
    header, arrays = read_binary((tmp_path / "results.bin").read_bytes())
    assert header["units"] == results["length_unit"] == "cm"
    np.testing.assert_allclose(
        np.linalg.norm(arrays["fields/electric_field"], axis=1),
        results["field_magnitudes"]["e_magnitudes"]["data"],
        rtol=1e-6,
    )
    np.testing.assert_allclose(arrays["fields/potential"], results["potential"]["data"], rtol=1e-6, atol=1e-7)
