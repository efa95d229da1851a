"""Slivers a volume mesh keeps after optimisation are reported with the CAD faces that force them, so the
environment can warn and mark them (issue 40: a vendor's SMA connector STEP meshed with 827 slivers and
nothing said so)."""

import json
from pathlib import Path

import gmsh


def _step(path: Path, build) -> Path:
    gmsh.initialize(interruptible=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.option.setString("Geometry.OCCTargetUnit", "MM")
        build(gmsh.model.occ)
        gmsh.model.occ.synchronize()
        gmsh.write(str(path))
    finally:
        gmsh.finalize()
    return path


def _connector(occ) -> None:
    """An edge-mount connector as vendors model it: one fused solid, with a 0.02 mm thin plate and a block
    whose top cuts the shell 0.01 mm below its crest (faces meeting at a grazing angle)."""
    r = 3.175
    shell = occ.addCylinder(0, 0, 0, 9.0, 0, 0, r)
    block = occ.addBox(2, -4, -4, 5, 8, 4 + r - 0.01)
    pin = occ.addCylinder(-4.0, 0, 0, 15.0, 0, 0, 0.38)
    plate = occ.addBox(-0.78, -4.76, -0.01, 2.79, 9.52, 0.02)
    occ.fuse([(3, shell)], [(3, block), (3, pin), (3, plate)])


def _mesh(engine, tmp_path: Path, step: Path) -> dict:
    job = tmp_path / "job"
    job.mkdir()
    (job / "source.step").write_bytes(step.read_bytes())
    payload = {
        "mesh_data": {},
        "config": {"analysisType": "tetra-only", "meshingOnly": True},
        "source": {"inputs": [{"file": "source.step", "format": "step", "name": step.name}]},
    }
    (job / "job.json").write_text(json.dumps(payload))
    assert engine("mesh", job)[-1]["event"] == "done"
    return json.loads((job / "results.json").read_text())


def test_slivers_forced_by_thin_and_grazing_features_are_reported_with_their_cad_faces(engine, tmp_path):
    r = _mesh(engine, tmp_path, _step(tmp_path / "connector.step", _connector))
    s = r["slivers"]
    print(
        f"connector: {s['count']} slivers of {len(r['tetrahedra'])}, {s['on_surface']} pinned to the surface"
    )
    assert s["count"] == r["quality"]["slivers"] > 0
    # what the optimiser leaves is pinned by the surface mesh of the thin and grazing faces
    assert s["on_surface"] >= 0.6 * s["count"]
    assert s["elements"] and len(s["elements"]) == min(s["count"], 5000)
    assert all(0 <= e < len(r["tetrahedra"]) for e in s["elements"])
    patches = set(r["face_patches"])
    assert s["cad_faces"] and set(s["cad_faces"]) <= patches
    # the marked triangles are 1-based surface ids on the named CAD faces
    tri = s["surface_triangles"]
    assert tri and all(1 <= t <= len(r["faces"]) for t in tri)
    assert {r["face_patches"][t - 1] for t in tri} == set(s["cad_faces"])
    assert s["message"].startswith(f"{s['count']} of {len(r['tetrahedra'])} tetrahedra are slivers")
    assert f"CAD faces {s['cad_faces'][0]}" in s["message"]


def test_a_clean_mesh_reports_no_slivers(engine, tmp_path):
    r = _mesh(engine, tmp_path, _step(tmp_path / "box.step", lambda occ: occ.addBox(0, 0, 0, 10, 10, 10)))
    assert r["quality"]["slivers"] == 0 and r["slivers"] is None
