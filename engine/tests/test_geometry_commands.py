"""The engine's `convert` and `mesh` commands, run exactly as the server runs them (subprocess,
JSON-lines protocol, files in the job directory)."""

import io
import json
import zipfile
from pathlib import Path

import numpy as np

from fieldline_engine.geometry.mesh_io import write_obj, write_stl_ascii, write_stl_binary
from fieldline_engine.testing import shapes

PROBLEM_MARKER_KEYS = {
    "format_version",
    "meshing_failed",
    "vertices",
    "faces",
    "problem_vertices",
    "problem_faces",
    "diagnostics",
    "format",
}


def _job(tmp_path: Path, payload: dict, files: dict[str, bytes | Path]) -> Path:
    job = tmp_path / "job"
    job.mkdir()
    for name, content in files.items():
        data = content.read_bytes() if isinstance(content, Path) else content
        (job / name).write_bytes(data)
    (job / "job.json").write_text(json.dumps(payload))
    return job


def test_convert_step_assembly_returns_named_bodies(engine, tmp_path):
    step = shapes.step_assembly(tmp_path / "a.step")
    job = _job(
        tmp_path,
        {"inputs": [{"file": "upload.step", "format": "step", "name": "a.step"}]},
        {"upload.step": step},
    )
    final = engine("convert", job)[-1]
    assert final["event"] == "done", final
    r = json.loads((job / "results.json").read_text())
    assert r["format"] == "multi-body" and r["mesh_count"] == 2
    assert [m["name"] for m in r["meshes"]] == ["Housing", "Pin"]
    assert r["units"] == "mm"
    assert r["bounding_box"] == {"min": [0.0, 0.0, 0.0], "max": [10.0, 10.0, 16.0]}
    assert len(r["face_patches"]) == sum(len(m["faces"]) for m in r["meshes"])
    # The housing is a box: six CAD faces; the pin a cylinder: three.
    assert [len(set(m["face_patches"])) for m in r["meshes"]] == [6, 3]


def test_convert_stl_in_inches_with_units_and_warnings(engine, tmp_path):
    stl = tmp_path / "b.stl"
    broken = shapes.broken_hole()
    write_stl_binary(stl, broken.vertices * 2, broken.faces)
    job = _job(
        tmp_path,
        {"inputs": [{"file": "u.stl", "format": "stl", "name": "b.stl"}], "units": "in"},
        {"u.stl": stl},
    )
    assert engine("convert", job)[-1]["event"] == "done"
    r = json.loads((job / "results.json").read_text())
    assert r["units"] == "in"
    assert r["bounding_box"]["max"] == [2.0, 2.0, 2.0]
    assert len(r["faces"]) == len(broken.faces) and len(r["vertices"]) == len(broken.vertices)
    assert any("hole" in w for w in r["warnings"])


def test_convert_obj_and_zip_of_stls(engine, tmp_path):
    va, fa = shapes.box_surface()
    obj = tmp_path / "m.obj"
    write_obj(obj, [("cube", va, fa)])
    job = _job(tmp_path, {"inputs": [{"file": "u.obj", "format": "obj", "name": "m.obj"}]}, {"u.obj": obj})
    assert engine("convert", job)[-1]["event"] == "done"
    r = json.loads((job / "results.json").read_text())
    assert r["name"] == "cube" and len(r["faces"]) == 12 and len(set(r["face_patches"])) == 6

    left, right = tmp_path / "left.stl", tmp_path / "right.stl"
    write_stl_ascii(left, [("left", va, fa)])
    write_stl_ascii(right, [("right", va + [5, 0, 0], fa)])
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.write(left, "parts/left.stl")
        zf.write(right, "parts/right.stl")
    job2 = tmp_path / "z"
    job2.mkdir()
    (job2 / "u.zip").write_bytes(buf.getvalue())
    (job2 / "job.json").write_text(
        json.dumps({"inputs": [{"file": "u.zip", "format": "zip", "name": "parts.zip"}]})
    )
    assert engine("convert", job2)[-1]["event"] == "done"
    r = json.loads((job2 / "results.json").read_text())
    assert r["mesh_count"] == 2 and [m["name"] for m in r["meshes"]] == ["left", "right"]
    assert r["bounding_box"] == {"min": [0.0, 0.0, 0.0], "max": [6.0, 1.0, 1.0]}


def test_convert_refuses_a_png_named_step(engine, tmp_path):
    job = _job(
        tmp_path,
        {"inputs": [{"file": "u.step", "format": "step", "name": "photo.step"}]},
        {"u.step": b"\x89PNG\r\n" + bytes(200)},
    )
    final = engine("convert", job)[-1]
    assert final == {"event": "error", "code": "invalid_input", "message": final["message"]}
    assert "not a STEP file" in final["message"]


def test_mesh_job_from_source_stl_and_failure_markers(engine, tmp_path):
    broken = shapes.broken_non_manifold_edge()
    stl = tmp_path / "nm.stl"
    write_stl_ascii(stl, [("part", broken.vertices, broken.faces)])
    payload = {
        "mesh_data": {},
        "config": {"analysisType": "tetra-only", "meshingOnly": True},
        "source": {"inputs": [{"file": "source.stl", "format": "stl", "name": "nm.stl"}], "units": "mm"},
    }
    job = _job(tmp_path, payload, {"source.stl": stl})
    final = engine("mesh", job)[-1]
    assert final["event"] == "error" and final["code"] == "meshing_failed"
    assert "non-manifold" in final["message"]
    markers = json.loads((job / "tetra_output.json").read_text())
    assert set(markers) >= PROBLEM_MARKER_KEYS
    assert markers["format"] == "problem_markers" and markers["meshing_failed"] is True
    assert set(markers["problem_faces"]) == broken.expected_faces
    assert markers["diagnostics"][0]["kind"] == "non_manifold_edge"
    assert not (job / "results.json").exists()


def test_mesh_job_from_mesh_data(engine, tmp_path):
    v, f = shapes.box_surface((0, 0, 0), (10, 10, 10))
    payload = {
        "mesh_data": {"vertices": v.tolist(), "faces": f.tolist(), "units": "mm"},
        "config": {"analysisType": "tetra-only", "meshingOnly": True, "meshMaxSize": 4},
    }
    job = _job(tmp_path, payload, {})
    final = engine("mesh", job)[-1]
    assert final["event"] == "done", final
    r = json.loads((job / "results.json").read_text())
    assert r["units"] == "mm" and r["region_names"] == ["Body 1"]
    t = np.asarray(r["tetrahedra"])
    assert len(t) == r["quality"]["element_count"] > 0
    assert len(r["tetrahedron_regions"]) == len(t)
    assert len(r["face_patches"]) == len(r["faces"])
    assert r["mesh_size"]["max_size"] == 4
