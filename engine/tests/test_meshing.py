"""Tetrahedral meshing through the whole pipeline (each mesher attempt in its own process).

A mesh is accepted only when it is valid: positive volumes, the surface preserved, watertight.
Those checks run inside the pipeline (volume_mesh.finalize); these tests check them again from the
outside, plus volumes against closed-form values and the body structure.
"""

import math
from pathlib import Path

import numpy as np
import pytest

from fieldline_engine.geometry.mesh_io import SurfaceBody
from fieldline_engine.geometry.pipeline import MeshFailure, MeshSuccess, mesh_cad_model, mesh_triangle_model
from fieldline_engine.geometry.surface import face_areas, signed_volume
from fieldline_engine.testing import shapes

LOCAL_FACES = np.array([[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]])


@pytest.fixture(scope="module")
def cad(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("cad")
    return {
        "box": shapes.step_box(d / "box.step"),
        "cylinder": shapes.step_cylinder(d / "cylinder.step"),
        "coax": shapes.step_coax(d / "coax.step"),
        "waveguide": shapes.step_waveguide(d / "wr90.step", length=10.0),
        "assembly": shapes.step_assembly(d / "assembly.step"),
        "bad": shapes.step_self_intersecting(d / "bad.step"),
    }


def tet_volumes(v: np.ndarray, t: np.ndarray) -> np.ndarray:
    a, b, c, d = (v[t[:, i]] for i in range(4))
    return np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a) / 6


def assert_valid(result) -> MeshSuccess:
    assert isinstance(result, MeshSuccess), getattr(result, "message", result)
    m = result.mesh
    vol = tet_volumes(m.vertices, m.tets)
    assert (vol > 0).all(), "every tetrahedron must have positive volume"
    tri = np.sort(m.tets[:, LOCAL_FACES].reshape(-1, 3), axis=1)
    uniq, counts = np.unique(tri, axis=0, return_counts=True)
    assert counts.max() <= 2
    boundary = {tuple(x) for x in uniq[counts == 1]}
    surface = {tuple(x) for x in np.sort(m.faces, axis=1)}
    all_faces = {tuple(x) for x in uniq}
    assert surface <= all_faces, "every surface triangle is a face of the volume mesh"
    assert boundary <= surface, "watertight: every boundary face of the tetrahedra is a surface triangle"
    assert len(m.face_patches) == len(m.faces) and m.face_patches.min() >= 1
    assert result.quality["element_count"] == len(m.tets)
    assert result.quality["min_dihedral_deg"] > 0
    return result


def test_stl_box_is_meshed_keeping_its_surface(tmp_path):
    v, f = shapes.box_surface((0, 0, 0), (2, 1, 1))
    result = assert_valid(
        mesh_triangle_model([SurfaceBody("box", v, f)], "mm", {"meshMaxSize": 0.25}, 1, tmp_path)
    )
    m = result.mesh
    assert tet_volumes(m.vertices, m.tets).sum() == pytest.approx(2.0, rel=1e-12)
    # Surface preserved: the 8 corners are mesh vertices, every surface triangle lies on a box side,
    # and the surface area is exactly the box's.
    for corner in v:
        assert np.min(np.linalg.norm(m.vertices - corner, axis=1)) == 0
    on_side = np.zeros(len(m.faces), dtype=bool)
    for axis, value in [(0, 0), (0, 2), (1, 0), (1, 1), (2, 0), (2, 1)]:
        on_side |= np.all(np.isclose(m.vertices[m.faces][:, :, axis], value), axis=1)
    assert on_side.all()
    assert face_areas(m.vertices, m.faces).sum() == pytest.approx(2 * (2 + 2 + 1))
    assert m.faces.shape[0] > 12  # long box sides were split to the element size
    assert len(np.unique(m.face_patches)) == 6  # one patch per box side, for picking whole faces
    print(f"STL box: {len(m.tets)} tetrahedra, min dihedral {result.quality['min_dihedral_deg']:.1f}°")


def test_stl_ball_inside_air_box_keeps_two_bodies(tmp_path):
    va, fa = shapes.box_surface((0, 0, 0), (4, 4, 4))
    vb, fb = shapes.icosphere((2, 2, 2), 1, 2)
    bodies = [SurfaceBody("air", va, fa), SurfaceBody("ball", vb, fb)]
    result = assert_valid(mesh_triangle_model(bodies, "mm", {"meshMaxSize": 0.6}, 1, tmp_path))
    m = result.mesh
    assert m.region_names == ["air", "ball"]
    vol = tet_volumes(m.vertices, m.tets)
    ball = signed_volume(vb, fb)  # the polyhedral ball, exactly as uploaded
    assert vol[m.regions == 1].sum() == pytest.approx(ball, rel=1e-10)
    assert vol[m.regions == 0].sum() == pytest.approx(64 - ball, rel=1e-10)


@pytest.mark.parametrize("mesher", ["delaunay", "netgen"])
def test_other_meshers_on_a_triangle_surface(tmp_path, mesher):
    v, f = shapes.box_surface((0, 0, 0), (1, 1, 1), 2)
    result = assert_valid(
        mesh_triangle_model(
            [SurfaceBody("box", v, f)], "mm", {"meshMaxSize": 0.35, "meshAlgorithm": mesher}, 1, tmp_path
        )
    )
    assert result.mesh.mesher == {"delaunay": "gmsh-delaunay", "netgen": "netgen"}[mesher]
    assert tet_volumes(result.mesh.vertices, result.mesh.tets).sum() == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize(
    ("name", "exact"),
    [
        ("box", 1000.0),
        ("cylinder", math.pi * 3**2 * 10),
        ("coax", math.pi * (1.49**2 - 0.455**2) * 5),
        ("waveguide", 22.86 * 10.16 * 10.0),
    ],
)
def test_cad_parts_mesh_to_their_volume(cad, tmp_path, name, exact):
    result = assert_valid(mesh_cad_model([cad[name]], "mm", {}, 1, tmp_path))
    m = result.mesh
    volume = tet_volumes(m.vertices, m.tets).sum()
    error = abs(volume - exact) / exact
    print(
        f"{name}: {len(m.tets)} tets ({m.mesher}), volume error {error:.2e}, auto size {result.options.max_size:.3g} mm"
    )
    assert error < (1e-12 if name in ("box", "waveguide") else 0.03)
    assert result.options.auto_size
    assert m.mesher == "gmsh-hxt"


def test_cad_assembly_keeps_body_names_and_regions(cad, tmp_path):
    result = assert_valid(mesh_cad_model([cad["assembly"]], "mm", {"meshMaxSize": 2.5}, 1, tmp_path))
    m = result.mesh
    assert m.region_names == ["Housing", "Pin"]
    vol = tet_volumes(m.vertices, m.tets)
    assert vol[m.regions == 0].sum() == pytest.approx(1000, rel=1e-9)
    # 12 segments per circle inscribe a polygon with 4.5 % less area than the circle.
    polygon = 0.5 * 12 * math.sin(2 * math.pi / 12) * 2**2 * 6
    assert vol[m.regions == 1].sum() == pytest.approx(polygon, rel=0.02)
    # The interface (the pin's foot) is one set of triangles shared by both bodies.
    foot = np.isclose(m.vertices[m.faces][:, :, 2], 10).all(axis=1)
    centre = np.linalg.norm(m.vertices[m.faces][:, :, :2].mean(axis=1) - 5, axis=1) < 2
    assert (foot & centre).sum() > 0


def test_per_body_size_refines_only_that_body(cad, tmp_path):
    coarse = mesh_cad_model([cad["assembly"]], "mm", {"meshMaxSize": 3.0}, 1, tmp_path)
    fine = mesh_cad_model(
        [cad["assembly"]],
        "mm",
        {"meshMaxSize": 3.0, "meshBodyMaxSizes": [{"region": "Pin", "maxSize": 0.5}]},
        1,
        tmp_path,
    )
    count = lambda r, b: int((r.mesh.regions == b).sum())  # noqa: E731
    assert count(fine, 1) > 3 * count(coarse, 1)
    assert count(fine, 0) < 2 * count(coarse, 0)
    assert fine.options.describe(fine.mesh.region_names)["body_max_sizes"] == {"Pin": 0.5}


def test_global_size_controls_the_element_count(cad, tmp_path):
    n = [
        len(mesh_cad_model([cad["box"]], "mm", {"meshMaxSize": h}, 1, tmp_path).mesh.tets) for h in (2.0, 1.0)
    ]
    print(f"box: {n[0]} tets at h=2 mm, {n[1]} at h=1 mm")
    assert 5 < n[1] / n[0] < 12  # ~8× for half the size


@pytest.mark.parametrize("mesher", ["delaunay", "netgen"])
def test_cad_with_the_fallback_meshers(cad, tmp_path, mesher):
    result = assert_valid(
        mesh_cad_model([cad["assembly"]], "mm", {"meshMaxSize": 3.0, "meshAlgorithm": mesher}, 1, tmp_path)
    )
    assert result.mesh.region_names == ["Housing", "Pin"]
    vol = tet_volumes(result.mesh.vertices, result.mesh.tets)
    assert vol[result.mesh.regions == 0].sum() == pytest.approx(1000, rel=1e-6)


def test_step_in_inches_stays_in_inches(cad, tmp_path):
    inch = shapes.step_with_unit(cad["box"], tmp_path / "box_in.step", "in")
    result = assert_valid(mesh_cad_model([inch], "in", {"meshMaxSize": 4.0}, 1, tmp_path))
    assert result.mesh.vertices.max() == pytest.approx(10.0)  # 10 inches, not 254 mm


def test_self_intersecting_cad_fails_with_markers_on_the_bad_face(cad, tmp_path):
    result = mesh_cad_model([cad["bad"]], "mm", {"meshMaxSize": 0.5}, 1, tmp_path)
    assert isinstance(result, MeshFailure)
    assert "surface mesh" in result.message and "intersection" in result.message
    p = result.payload
    assert p["format"] == "problem_markers" and p["meshing_failed"] is True
    assert [a["mesher"] for a in p["attempts"]] == ["gmsh HXT", "gmsh Delaunay", "Netgen"]
    cad_face = next(d for d in p["diagnostics"] if d["kind"] == "cad_face")
    v = np.asarray(p["vertices"])
    f = np.asarray(p["faces"])
    marked = v[f[cad_face["faces"]]]
    # The marked CAD face takes part in the intersection: the small box's sides pierce the big
    # box's top at z = 2, along the square 0.5 ≤ x, y ≤ 1.5.
    assert marked[:, :, 2].min() <= 2.0 + 1e-9 <= marked[:, :, 2].max() + 2e-9
    x, y, z = cad_face["point"]
    assert z == pytest.approx(2.0) and 0.5 - 1e-9 <= x <= 1.5 + 1e-9 and 0.5 - 1e-9 <= y <= 1.5 + 1e-9
    print(cad_face["message"])


def test_broken_stl_fails_before_any_mesher_runs(tmp_path):
    broken = shapes.broken_self_intersection()
    result = mesh_triangle_model([SurfaceBody("part", broken.vertices, broken.faces)], "mm", {}, 1, tmp_path)
    assert isinstance(result, MeshFailure)
    assert result.attempts == []
    assert set(result.payload["problem_faces"]) == broken.expected_faces
    assert "self-intersections" in result.message


def test_absurd_sizes_are_refused_before_meshing(cad, tmp_path):
    from fieldline_engine.errors import InvalidInput

    with pytest.raises(InvalidInput, match="million tetrahedra"):
        mesh_cad_model([cad["box"]], "mm", {"meshMaxSize": 0.01}, 1, tmp_path)


def test_hollow_stl_body_keeps_its_cavity_empty(tmp_path):
    vo, fo = shapes.box_surface((0, 0, 0), (4, 4, 4))
    vi, fi = shapes.box_surface((1, 1, 1), (3, 3, 3))
    body = SurfaceBody("shell", np.vstack([vo, vi]), np.vstack([fo, fi + len(vo)]))
    result = assert_valid(mesh_triangle_model([body], "mm", {"meshMaxSize": 1.0}, 1, tmp_path))
    assert tet_volumes(result.mesh.vertices, result.mesh.tets).sum() == pytest.approx(56.0, rel=1e-12)
