"""Surface checks and safe repairs: each deliberately broken surface must be reported at exactly the
triangles that are wrong, and clean surfaces must produce no false alarms."""

import numpy as np
import pytest

from fieldline_engine.geometry.intersections import find_intersections
from fieldline_engine.geometry.mesh_io import SurfaceBody
from fieldline_engine.geometry.prepare import prepare_surface
from fieldline_engine.geometry.refine import refine_to_size
from fieldline_engine.geometry.surface import edge_table, signed_volume
from fieldline_engine.testing import shapes

# Words the environment's error rewrite reacts to (spec 001 §8).
TRIGGERS = ("self-intersections", "non-manifold", "surface mesh", "intersect", "zero volume")


def _prepare(broken: shapes.BrokenSurface, repair="safe", **kw):
    return prepare_surface([SurfaceBody("part", broken.vertices, broken.faces)], repair, **kw)


@pytest.mark.parametrize(
    "make",
    [shapes.broken_hole, shapes.broken_self_intersection, shapes.broken_non_manifold_edge],
    ids=["hole", "self-intersection", "non-manifold-edge"],
)
@pytest.mark.parametrize("repair", ["safe", "none"])
def test_defects_that_stop_meshing_are_pinned_to_their_triangles(make, repair):
    broken = make()
    prep = _prepare(broken, repair)
    assert prep.surface is None
    assert {p.kind for p in prep.problems} == {broken.kind}
    reported = {f for p in prep.problems for f in p.faces}
    assert reported == broken.expected_faces, (
        f"reported {sorted(reported)}, expected {sorted(broken.expected_faces)}"
    )
    for p in prep.problems:
        assert any(word in p.message for word in TRIGGERS), p.message
        assert p.vertices and all(0 <= v < len(prep.report_vertices) for v in p.vertices)
    print(f"{broken.name}: {prep.problems[0].message}")


@pytest.mark.parametrize(
    "make", [shapes.broken_flipped_triangle, shapes.broken_degenerate_needle], ids=["flipped", "needle"]
)
def test_safe_repairs_fix_and_name_the_triangles(make):
    broken = make()
    prep = _prepare(broken)
    assert prep.problems == []
    assert prep.surface is not None
    repaired = {f for r in prep.repairs for f in r.faces}
    assert repaired == broken.expected_faces
    table = edge_table(prep.surface.faces)
    assert (table.edge_count == 2).all()  # closed and manifold after the repair
    assert signed_volume(prep.surface.vertices, prep.surface.faces) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "make", [shapes.broken_flipped_triangle, shapes.broken_degenerate_needle], ids=["flipped", "needle"]
)
def test_without_repairs_the_same_defects_become_problem_markers(make):
    broken = make()
    prep = _prepare(broken, "none")
    assert {p.kind for p in prep.problems} == {broken.kind}
    assert {f for p in prep.problems for f in p.faces} == broken.expected_faces
    assert prep.repairs == []


def test_inside_out_surface_is_turned_outward():
    v, f = shapes.icosphere(subdivisions=2)
    prep = prepare_surface([SurfaceBody("ball", v, f[:, ::-1])])
    assert prep.repairs[0].kind == "fix_orientation"
    assert signed_volume(prep.surface.vertices, prep.surface.faces) > 0


def test_holes_are_filled_only_with_consent():
    broken = shapes.broken_hole()
    prep = _prepare(broken, allow_shape_repair=True)
    assert prep.problems == []
    assert [r.kind for r in prep.repairs] == ["fill_holes"]
    assert set(prep.repairs[0].faces) == broken.expected_faces


def test_unwelded_stl_corners_are_merged():
    v, f = shapes.box_surface(n=2)
    soup = v[f].reshape(-1, 3)
    soup[3] += 1e-9  # float noise on one corner leaves a crack unless near-coincident corners merge
    prep = prepare_surface([SurfaceBody("box", soup, np.arange(len(soup)).reshape(-1, 3))])
    assert prep.problems == []
    assert prep.repairs[0].kind == "merge_vertices"


@pytest.mark.parametrize(
    ("name", "surface"),
    [
        ("sphere", shapes.icosphere(subdivisions=3)),
        ("box", shapes.box_surface(n=4)),
        ("thin box", shapes.box_surface((0, 0, 0), (10, 10, 0.01), n=3)),
    ],
)
def test_no_false_intersections_on_clean_surfaces(name, surface):
    v, f = surface
    assert len(find_intersections(v, f).pairs) == 0, name


def test_nested_bodies_get_inside_and_outside_regions():
    va, fa = shapes.box_surface((0, 0, 0), (4, 4, 4), 2)
    vb, fb = shapes.icosphere((2, 2, 2), 1, 2)
    prep = prepare_surface([SurfaceBody("air", va, fa), SurfaceBody("ball", vb, fb)])
    s = prep.surface
    assert prep.problems == []
    pairs = {tuple(x) for x in np.column_stack([s.inside, s.outside]).tolist()}
    assert pairs == {(0, -1), (1, 0)}  # box boundary faces the exterior; the ball sits in the air


def test_touching_bodies_share_interface_triangles():
    va, fa = shapes.box_surface((0, 0, 0), (1, 1, 1), 2)
    vb, fb = shapes.box_surface((1, 0, 0), (2, 1, 1), 2)
    prep = prepare_surface([SurfaceBody("a", va, fa), SurfaceBody("b", vb, fb)])
    s = prep.surface
    shared = (s.inside >= 0) & (s.outside >= 0)
    assert shared.sum() == 8  # the 2×2 contact face, once
    assert np.allclose(s.vertices[s.faces[shared]][:, :, 0], 1.0)


def test_overlapping_bodies_are_reported_with_both_names():
    va, fa = shapes.box_surface((0, 0, 0), (2, 2, 2))
    vb, fb = shapes.box_surface((1, 0.5, 0.5), (3, 1.5, 1.5))
    prep = prepare_surface([SurfaceBody("block", va, fa), SurfaceBody("rod", vb, fb)])
    assert [p.kind for p in prep.problems] == ["overlapping_bodies"]
    assert "'block' and 'rod'" in prep.problems[0].message


def test_refinement_keeps_the_surface_and_its_area():
    v, f = shapes.box_surface((0, 0, 0), (3, 2, 1))
    attrs = {"patch": np.arange(len(f))}
    v2, f2, a2 = refine_to_size(v, f, np.full(len(f), 0.3), attrs)
    lengths = np.linalg.norm(v2[f2] - v2[np.roll(f2, -1, axis=1)], axis=2)
    assert lengths.max() <= 0.3 + 1e-12
    assert signed_volume(v2, f2) == pytest.approx(6.0)
    assert (edge_table(f2).edge_count == 2).all()  # conforming: every edge shared by two triangles
    # every child lies on its parent's plane
    n = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    parent = a2["patch"]
    offsets = np.einsum("ij,ikj->ik", n[parent], v2[f2] - v[f[parent, 0]][:, None, :])
    assert np.abs(offsets).max() < 1e-12


def test_a_cavity_wall_is_oriented_into_the_cavity():
    vo, fo = shapes.box_surface((0, 0, 0), (4, 4, 4))
    vi, fi = shapes.box_surface((1, 1, 1), (3, 3, 3))  # written outward, as a separate closed shell
    v = np.vstack([vo, vi])
    f = np.vstack([fo, fi + len(vo)])
    prep = prepare_surface([SurfaceBody("shell", v, f)])
    assert prep.problems == []
    assert [r.kind for r in prep.repairs] == ["fix_orientation"]
    assert set(prep.repairs[0].faces) == set(range(12, 24))  # the inner box's triangles were turned
    assert signed_volume(prep.surface.vertices, prep.surface.faces) == pytest.approx(64 - 8)
