"""results.bin: the header describes every array, arrays sit at aligned offsets and hold the results' values."""

import json

import numpy as np

from fieldline_engine.post.results_binary import encode_results_binary, triangle_regions
from fieldline_engine.testing.meshes import box_mesh


def read_binary(blob: bytes) -> tuple[dict, dict[str, np.ndarray]]:
    assert blob[:4] == b"FLRB"
    assert int.from_bytes(blob[4:8], "little") == 1
    length = int.from_bytes(blob[8:12], "little")
    header = json.loads(blob[12 : 12 + length])
    arrays = {}
    for name, entry in header["arrays"].items():
        assert entry["offset"] % 16 == 0
        dtype = "<f4" if entry["dtype"] == "float32" else "<u4"
        arr = np.frombuffer(blob, dtype=dtype, count=entry["byte_length"] // 4, offset=entry["offset"])
        arrays[name] = arr.reshape(entry["shape"])
    return header, arrays


def test_round_trip_of_mesh_fields_and_animation():
    mesh = box_mesh((2.0, 1.0, 1.0), (2, 1, 1))
    nv = len(mesh["vertices"])
    rng = np.random.default_rng(1)
    e = rng.random((nv, 3))
    results = {
        **mesh,
        "tetrahedron_regions": [0] * 6 + [1] * 6,
        "region_names": ["air", "ptfe"],
        "field_magnitudes": {
            "e_magnitudes": {"format": "dense", "data": np.linalg.norm(e, axis=1).tolist(), "size": nv},
            "h_magnitudes": {"format": "sparse", "data": {"3": 2.5}, "size": nv},
        },
        "efields": {"format": "dense", "data": {str(i): list(v) for i, v in enumerate(e)}, "size": nv},
        "potential": {"format": "dense", "data": list(range(nv)), "size": nv},
        "animation": {
            "frames": 2,
            "kind": "phase",
            "frame_values": [0.0, 180.0],
            "data": [{"e_magnitudes": [1.0] * nv}, {"e_magnitudes": [2.0] * nv, "efields": (-e).tolist()}],
        },
    }
    header, arrays = read_binary(encode_results_binary(results, "mm"))
    assert header["units"] == "mm"
    assert header["region_names"] == ["air", "ptfe"]
    assert header["animation"] == {"kind": "phase", "frame_count": 2, "frame_values": [0.0, 180.0]}
    np.testing.assert_allclose(arrays["vertices"], np.asarray(mesh["vertices"]), rtol=1e-7)
    np.testing.assert_array_equal(arrays["triangles"], np.asarray(mesh["faces"]))
    np.testing.assert_array_equal(arrays["tetrahedra"], np.asarray(mesh["tetrahedra"]))
    np.testing.assert_allclose(arrays["efields"], e, rtol=1e-6)
    np.testing.assert_allclose(arrays["e_magnitudes"], np.linalg.norm(e, axis=1), rtol=1e-6)
    assert arrays["h_magnitudes"][3] == 2.5 and arrays["h_magnitudes"].sum() == 2.5
    np.testing.assert_array_equal(arrays["potential"], np.arange(nv))
    np.testing.assert_array_equal(arrays["frames/1/e_magnitudes"], np.full(nv, 2.0))
    np.testing.assert_allclose(arrays["frames/1/efields"], -e, rtol=1e-6)
    assert "frames/0/efields" not in arrays
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
        arrays["e_magnitudes"], results["field_magnitudes"]["e_magnitudes"]["data"], rtol=1e-6
    )
    np.testing.assert_allclose(arrays["potential"], results["potential"]["data"], rtol=1e-6, atol=1e-7)
