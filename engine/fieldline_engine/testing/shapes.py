"""Test geometry made in code: closed triangle surfaces, deliberately broken ones, and CAD (STEP) parts.

Each broken surface comes with the triangles a correct checker must name, so tests can assert that
problem markers point at exactly the right place.
"""

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

# Quad corners of each box side as (axis, side) with outward orientation; vertex bits x=1, y=2, z=4.
_BOX_QUADS = {
    (0, 0): (0, 4, 6, 2),
    (0, 1): (1, 3, 7, 5),
    (1, 0): (0, 1, 5, 4),
    (1, 1): (2, 6, 7, 3),
    (2, 0): (0, 2, 3, 1),
    (2, 1): (4, 5, 7, 6),
}


def box_surface(lo=(0.0, 0.0, 0.0), hi=(1.0, 1.0, 1.0), n: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """A closed, outward-oriented box surface with n×n quads (2 triangles each) on every side.

    Side order: -x, +x, -y, +y, -z, +z; within a side, quads row by row; triangles (a,b,c),(a,c,d)."""
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    index: dict[tuple[int, int, int], int] = {}
    verts: list[np.ndarray] = []
    faces: list[list[int]] = []

    def vid(g: tuple[int, int, int]) -> int:
        if g not in index:
            index[g] = len(verts)
            verts.append(lo + (hi - lo) * np.asarray(g, float) / n)
        return index[g]

    for quad in _BOX_QUADS.values():
        corners = [np.array([(q >> k) & 1 for k in range(3)]) for q in quad]
        u_dir = corners[1] - corners[0]
        v_dir = corners[3] - corners[0]
        base = corners[0] * n
        for i in range(n):
            for j in range(n):
                g = [
                    tuple(int(x) for x in base + u_dir * (i + di) + v_dir * (j + dj))
                    for di, dj in ((0, 0), (1, 0), (1, 1), (0, 1))
                ]
                a, b, c, d = (vid(x) for x in g)
                faces += [[a, b, c], [a, c, d]]
    return np.asarray(verts), np.asarray(faces, dtype=np.int64)


def icosphere(
    centre=(0.0, 0.0, 0.0), radius: float = 1.0, subdivisions: int = 2
) -> tuple[np.ndarray, np.ndarray]:
    t = (1 + 5**0.5) / 2
    v = [
        (-1, t, 0),
        (1, t, 0),
        (-1, -t, 0),
        (1, -t, 0),
        (0, -1, t),
        (0, 1, t),
        (0, -1, -t),
        (0, 1, -t),
        (t, 0, -1),
        (t, 0, 1),
        (-t, 0, -1),
        (-t, 0, 1),
    ]
    f = [
        (0, 11, 5),
        (0, 5, 1),
        (0, 1, 7),
        (0, 7, 10),
        (0, 10, 11),
        (1, 5, 9),
        (5, 11, 4),
        (11, 10, 2),
        (10, 7, 6),
        (7, 1, 8),
        (3, 9, 4),
        (3, 4, 2),
        (3, 2, 6),
        (3, 6, 8),
        (3, 8, 9),
        (4, 9, 5),
        (2, 4, 11),
        (6, 2, 10),
        (8, 6, 7),
        (9, 8, 1),
    ]
    verts = [np.asarray(p, float) / np.linalg.norm(p) for p in v]
    faces = [list(x) for x in f]
    for _ in range(subdivisions):
        mid: dict[tuple[int, int], int] = {}

        def midpoint(a: int, b: int, mid: dict[tuple[int, int], int] = mid) -> int:
            key = (min(a, b), max(a, b))
            if key not in mid:
                p = verts[a] + verts[b]
                mid[key] = len(verts)
                verts.append(p / np.linalg.norm(p))
            return mid[key]

        new = []
        for a, b, c in faces:
            ab, bc, ca = midpoint(a, b), midpoint(b, c), midpoint(c, a)
            new += [[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]
        faces = new
    return np.asarray(verts) * radius + np.asarray(centre, float), np.asarray(faces, dtype=np.int64)


@dataclass
class BrokenSurface:
    """A surface with one kind of defect and the 0-based triangle ids a checker must report."""

    name: str
    kind: str
    vertices: np.ndarray
    faces: np.ndarray
    expected_faces: set[int]
    bodies: list[tuple[str, np.ndarray, np.ndarray]] = field(default_factory=list)


def broken_hole() -> BrokenSurface:
    """A 2×2 box with one triangle removed from the middle of the +z side."""
    v, f = box_surface(n=2)
    top = [i for i, t in enumerate(f) if np.allclose(v[t][:, 2], 1.0)]
    removed = top[1]
    f2 = np.delete(f, removed, axis=0)
    hole_edges = {tuple(sorted((f[removed][k], f[removed][(k + 1) % 3]))) for k in range(3)}
    expected = {
        i
        for i, t in enumerate(f2)
        if any(tuple(sorted((t[k], t[(k + 1) % 3]))) in hole_edges for k in range(3))
    }
    return BrokenSurface("hole", "open_boundary", v, f2, expected)


def broken_self_intersection() -> BrokenSurface:
    """Box A = [0,2]³ and a box poking out of its top, B = [0.5,1.5]²×[1.5,2.5], in one solid.

    B's four sides (8 triangles) cross A's top (2 triangles): exactly those 10 triangles intersect."""
    va, fa = box_surface((0, 0, 0), (2, 2, 2))
    vb, fb = box_surface((0.5, 0.5, 1.5), (1.5, 1.5, 2.5))
    v = np.vstack([va, vb])
    f = np.vstack([fa, fb + len(va)])
    top_a = {i for i, t in enumerate(fa) if np.allclose(va[t][:, 2], 2.0)}
    sides_b = {len(fa) + i for i, t in enumerate(fb) if np.ptp(vb[t][:, 2]) > 0}
    return BrokenSurface("self_intersection", "self_intersection", v, f, top_a | sides_b)


def broken_non_manifold_edge() -> BrokenSurface:
    """Two unit boxes in one solid touching only along the edge x=1, y=1 (four triangles on one edge)."""
    va, fa = box_surface((0, 0, 0), (1, 1, 1))
    vb, fb = box_surface((1, 1, 0), (2, 2, 1))
    v = np.vstack([va, vb])
    f = np.vstack([fa, fb + len(va)])
    on_edge = {
        i for i, t in enumerate(f) if (np.isclose(v[t][:, 0], 1) & np.isclose(v[t][:, 1], 1)).sum() >= 2
    }
    return BrokenSurface("non_manifold_edge", "non_manifold_edge", v, f, on_edge)


def broken_flipped_triangle() -> BrokenSurface:
    """A 2×2 box with triangle 5 reversed."""
    v, f = box_surface(n=2)
    f = f.copy()
    f[5] = f[5][::-1]
    return BrokenSurface("flipped_triangle", "inconsistent_orientation", v, f, {5})


def broken_degenerate_needle() -> BrokenSurface:
    """A 2×2 box where one -z triangle (a,b,c) is split at the midpoint m of edge ab into (a,m,c) and
    (m,b,c), leaving the zero-area needle (a,b,m) to close the surface (it is the last triangle)."""
    v, f = box_surface(n=2)
    bottom = [i for i, t in enumerate(f) if np.allclose(v[t][:, 2], 0.0)]
    a, b, c = f[bottom[0]]
    m = len(v)
    v = np.vstack([v, (v[a] + v[b]) / 2])
    f = f.copy()
    f[bottom[0]] = [a, m, c]
    f = np.vstack([f, [[m, b, c]], [[a, b, m]]])
    return BrokenSurface("degenerate", "degenerate_triangle", v, f, {len(f) - 1})


def write_step_shapes(path: Path, shapes: list[tuple[str, object]]) -> Path:
    """Writes netgen.occ solids with their names (kept as MANIFOLD_SOLID_BREP names) to a STEP file."""
    from netgen.occ import Compound

    for name, shape in shapes:
        shape.name = name  # type: ignore[attr-defined]
    solids = [s for _, s in shapes]
    (solids[0] if len(solids) == 1 else Compound(solids)).WriteStep(str(path))
    return path


def step_box(path: Path, size=(10.0, 10.0, 10.0), name: str = "Block") -> Path:
    from netgen.occ import Box, Pnt

    return write_step_shapes(path, [(name, Box(Pnt(0, 0, 0), Pnt(*size)))])


def step_cylinder(path: Path, radius: float = 3.0, height: float = 10.0, name: str = "Rod") -> Path:
    from netgen.occ import Cylinder, Pnt, Z

    return write_step_shapes(path, [(name, Cylinder(Pnt(0, 0, 0), Z, r=radius, h=height))])


def step_coax(path: Path, inner: float = 0.455, outer: float = 1.49, length: float = 5.0) -> Path:
    """The dielectric of a coaxial line section (RG-58-like radii in mm): a tube with the conductors removed."""
    from netgen.occ import Cylinder, Pnt, Z

    tube = Cylinder(Pnt(0, 0, 0), Z, r=outer, h=length) - Cylinder(Pnt(0, 0, 0), Z, r=inner, h=length)
    return write_step_shapes(path, [("PTFE", tube)])


def step_waveguide(path: Path, length: float = 30.0) -> Path:
    """The air inside a WR-90 waveguide section: 22.86 mm × 10.16 mm, `length` mm long."""
    from netgen.occ import Box, Pnt

    return write_step_shapes(path, [("WR-90 air", Box(Pnt(0, 0, 0), Pnt(22.86, 10.16, length)))])


def step_assembly(path: Path) -> Path:
    """Two touching bodies: a 10 mm housing block and a pin of radius 2 mm standing on its top."""
    from netgen.occ import Box, Cylinder, Pnt, Z

    return write_step_shapes(
        path,
        [
            ("Housing", Box(Pnt(0, 0, 0), Pnt(10, 10, 10))),
            ("Pin", Cylinder(Pnt(5, 5, 10), Z, r=2, h=6)),
        ],
    )


def step_self_intersecting(path: Path) -> Path:
    """An invalid solid: the faces of a 2 mm box and of a 1 mm box poking through its top, sewn into
    one shell. CAD tools refuse to build it; exporters still write such files."""
    import gmsh

    gmsh.initialize(readConfigFiles=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        occ = gmsh.model.occ
        big, small = occ.addBox(0, 0, 0, 2, 2, 2), occ.addBox(0.5, 0.5, 1.5, 1, 1, 1)
        occ.synchronize()
        faces = [t for b in (big, small) for _, t in gmsh.model.getBoundary([(3, b)], oriented=False)]
        occ.remove([(3, big), (3, small)])
        occ.addVolume([occ.addSurfaceLoop(faces, sewing=False)])
        occ.synchronize()
        gmsh.write(str(path))
    finally:
        gmsh.finalize()
    return path


def step_with_unit(src: Path, dst: Path, unit: str) -> Path:
    """Copies a millimetre STEP file declaring another length unit (same numbers, new meaning)."""
    replacement = {
        "cm": "SI_UNIT(.CENTI.,.METRE.)",
        "m": "SI_UNIT($,.METRE.)",
        "um": "SI_UNIT(.MICRO.,.METRE.)",
    }
    text = src.read_text(encoding="latin-1")
    if unit == "in":
        text = text.replace(
            "( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) )",
            "( CONVERSION_BASED_UNIT('INCH',#9001) LENGTH_UNIT() NAMED_UNIT(#9002) )",
        )
        text = text.replace(
            "ENDSEC;\nEND-ISO-10303-21;",
            "#9001 = LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(25.4),#9003);\n"
            "#9002 = DIMENSIONAL_EXPONENTS(1.,0.,0.,0.,0.,0.,0.);\n"
            "#9003 = ( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) );\n"
            "ENDSEC;\nEND-ISO-10303-21;",
        )
    else:
        text = text.replace("SI_UNIT(.MILLI.,.METRE.)", replacement[unit])
    dst.write_text(text, encoding="latin-1")
    return dst
