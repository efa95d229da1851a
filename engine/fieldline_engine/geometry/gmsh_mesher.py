"""gmsh with OpenCascade: STEP import (file units, body names), healing, fragmenting assemblies,
the surface preview for conversion, and tetrahedral meshing with HXT or Delaunay — for CAD models and
for repaired triangle surfaces (as discrete gmsh surfaces, so the triangles are kept).

gmsh holds one global model per process: every function here runs inside `gmsh_session()`, and the
pipeline runs each attempt in its own process (isolation.py).
"""

import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from fieldline_engine.errors import EngineError, InvalidInput
from fieldline_engine.geometry.mesh_io import SurfaceBody
from fieldline_engine.geometry.step_units import OCC_UNIT_NAME
from fieldline_engine.geometry.surface import signed_volume, winding_numbers
from fieldline_engine.geometry.volume_mesh import VolumeMesh

ALGORITHM_3D = {"hxt": 10, "delaunay": 1}
MESHER_LABEL = {"hxt": "gmsh-hxt", "delaunay": "gmsh-delaunay"}


@dataclass
class FailureDetails:
    """What a failed attempt knows about where it failed, for problem markers."""

    message: str
    surfaces: list[int] = field(default_factory=list)  # gmsh surface tags (CAD faces / patches)
    node_tags: list[int] = field(default_factory=list)
    points: list[list[float]] = field(default_factory=list)
    # The surface mesh at the time of failure (CAD input): vertices, faces, patch per face.
    surface: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    body_of_patch: dict[int, str] = field(default_factory=dict)


class AttemptFailed(EngineError):
    def __init__(self, message: str, details: FailureDetails):
        super().__init__("meshing_failed", message)
        self.details = details


@dataclass
class CadBody:
    name: str
    volumes: list[int]
    centre: np.ndarray
    volume: float


@contextmanager
def gmsh_session(threads: int = 1, abort_on_error: bool = True):
    import gmsh

    gmsh.initialize(readConfigFiles=False, interruptible=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.option.setNumber("General.NumThreads", max(1, threads))
        gmsh.option.setNumber("General.AbortOnError", 2 if abort_on_error else 0)
        gmsh.logger.start()
        gmsh.model.add("fieldline")
        yield gmsh
    finally:
        gmsh.finalize()


def _errors(gmsh) -> list[str]:
    return [line for line in gmsh.logger.get() if line.startswith("Error")]


# ---------------------------------------------------------------------------------------------- CAD


# Product names some exporters write when the user gave none; they name nothing.
_GENERIC_LABEL = re.compile(
    r"^(Open CASCADE STEP translator.*|SOLID|Solid\d*|PART|Part|unnamed|)$", re.IGNORECASE
)


def _clean_label(label: str) -> str:
    """'Shapes/as1/NUT::1/nut & & 256' → 'nut' (gmsh appends layer information after '&')."""
    last = label.rstrip("/").split("/")[-1]
    name = re.sub(r"\s*&.*$", "", last).strip()
    return "" if _GENERIC_LABEL.match(name) else name


# OpenCascade shape healing costs ~0.05–0.1 s per solid (and grows with the model); assemblies larger
# than this are healed only when a first meshing attempt has failed.
HEAL_MAX_SOLIDS = 64


def load_step(files: list[Path], unit: str, heal: bool | None = None) -> list[CadBody]:
    """Imports STEP files in `unit` and returns the bodies with their names. Loose surfaces are sewn
    into solids; solids are healed when `heal` (default: small models only)."""
    import gmsh

    gmsh.option.setString("Geometry.OCCTargetUnit", OCC_UNIT_NAME[unit])
    for path in files:
        try:
            gmsh.model.occ.importShapes(str(path), highestDimOnly=True, format="step")
        except Exception as exc:  # noqa: BLE001 - OCC reports unreadable files as generic errors
            raise InvalidInput(f"The STEP file could not be read: {exc}") from exc
    gmsh.model.occ.synchronize()
    volumes = gmsh.model.getEntities(3)
    if not volumes:
        surfaces = gmsh.model.getEntities(2)
        if surfaces:
            gmsh.model.occ.healShapes(surfaces, sewFaces=True, makeSolids=True)
            gmsh.model.occ.synchronize()
            volumes = gmsh.model.getEntities(3)
        if not volumes:
            raise InvalidInput(
                f"The STEP file contains no solid bodies ({len(surfaces)} loose surfaces could not be "
                "closed into solids). Export solids, or close the surfaces in your CAD tool."
            )
    names = [_clean_label(gmsh.model.getEntityName(3, t)) for _, t in volumes]
    centres = np.array([gmsh.model.occ.getCenterOfMass(3, t) for _, t in volumes])
    if heal if heal is not None else len(volumes) <= HEAL_MAX_SOLIDS:
        gmsh.model.occ.healShapes(volumes, sewFaces=True, makeSolids=True)
        gmsh.model.occ.synchronize()
    tags = [t for _, t in gmsh.model.getEntities(3)]
    bodies: list[CadBody] = []
    for t in tags:
        centre = np.array(gmsh.model.occ.getCenterOfMass(3, t))
        name = _clean_label(gmsh.model.getEntityName(3, t))
        if not name and len(centres):
            name = names[int(np.argmin(np.linalg.norm(centres - centre, axis=1)))]
        bodies.append(CadBody(name, [t], centre, float(gmsh.model.occ.getMass(3, t))))
    if any(not b.name for b in bodies):
        _names_from_netgen(files, unit, bodies)
    seen: dict[str, int] = {}
    for k, b in enumerate(bodies):
        base = b.name or f"Body {k + 1}"
        seen[base] = seen.get(base, 0) + 1
        b.name = base if seen[base] == 1 else f"{base} ({seen[base]})"
    return bodies


def _names_from_netgen(files: list[Path], unit: str, bodies: list[CadBody]) -> None:
    """gmsh reads product names (assembly labels); solid names (MANIFOLD_SOLID_BREP) come via Netgen,
    matched to gmsh's volumes by centre of mass (Netgen works in millimetres)."""
    from netgen.occ import OCCGeometry

    from fieldline_engine.mesh.units import METRES_PER_UNIT

    mm_to_unit = 1e-3 / METRES_PER_UNIT[unit]
    candidates: list[tuple[str, np.ndarray]] = []
    for path in files:
        try:
            shape = OCCGeometry(str(path)).shape
        except Exception:  # noqa: BLE001 - names are a convenience; gmsh already read the geometry
            return
        for solid in shape.solids:
            if solid.name:
                c = solid.center
                candidates.append((str(solid.name), np.array([c.x, c.y, c.z]) * mm_to_unit))
    if not candidates:
        return
    points = np.array([c for _, c in candidates])
    scale = max(1e-30, float(np.abs(points).max()))
    for b in bodies:
        if b.name:
            continue
        distance = np.linalg.norm(points - b.centre, axis=1)
        k = int(np.argmin(distance))
        if distance[k] <= 1e-6 * scale + 1e-9:
            b.name = candidates[k][0]


def model_diagonal() -> float:
    import gmsh

    x0, y0, z0, x1, y1, z1 = gmsh.model.getBoundingBox(-1, -1)
    return float(np.linalg.norm([x1 - x0, y1 - y0, z1 - z0]))


def _node_index() -> tuple[np.ndarray, np.ndarray]:
    import gmsh

    tags, coords, _ = gmsh.model.mesh.getNodes()
    xyz = np.asarray(coords, dtype=np.float64).reshape(-1, 3)
    index = np.full(int(tags.max()) + 1 if len(tags) else 1, -1, dtype=np.int64)
    index[np.asarray(tags, dtype=np.int64)] = np.arange(len(tags))
    return xyz, index


def _surface_triangles(surface: int, index: np.ndarray) -> np.ndarray:
    import gmsh

    _, nodes = gmsh.model.mesh.getElementsByType(2, surface)
    return index[np.asarray(nodes, dtype=np.int64).reshape(-1, 3)]


def cad_surface_preview(files: list[Path], unit: str) -> tuple[list[SurfaceBody], list[str]]:
    """Triangulates every body's boundary for display: triangles oriented outward, patch = CAD face.
    The preview shows the file as it is; healing happens when it is meshed."""
    import gmsh

    bodies = load_step(files, unit, heal=False)
    diag = model_diagonal()
    gmsh.option.setNumber("Mesh.MeshSizeMax", diag / 25)
    gmsh.option.setNumber("Mesh.MeshSizeMin", diag / 2000)
    gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 10)
    gmsh.option.setNumber("General.AbortOnError", 0)
    gmsh.model.mesh.generate(2)
    notes = [f"gmsh: {line}" for line in _errors(gmsh)[:10]]
    xyz, index = _node_index()
    out: list[SurfaceBody] = []
    for b in bodies:
        tris, patches = [], []
        for vol in b.volumes:
            for _, s in gmsh.model.getBoundary([(3, vol)], combined=False, oriented=True):
                t = _surface_triangles(abs(s), index)
                tris.append(t[:, ::-1] if s < 0 else t)
                patches.append(np.full(len(t), abs(s)))
        faces = np.vstack(tris) if tris else np.zeros((0, 3), dtype=np.int64)
        if not len(faces):
            notes.append(f"Body '{b.name}' could not be triangulated.")
            continue
        used, inv = np.unique(faces, return_inverse=True)
        v, f = xyz[used], inv.reshape(-1, 3)
        if signed_volume(v, f) < 0:
            f = f[:, ::-1]
        out.append(SurfaceBody(b.name, v, f, np.concatenate(patches)))
    if not out:
        raise InvalidInput("The STEP file's bodies could not be triangulated.")
    return out, notes


def _fragment(bodies: list[CadBody]) -> tuple[dict[int, int], list[str]]:
    """Makes touching or overlapping bodies share their interfaces (conformal mesh). Returns the body
    of every volume; an overlap goes to the smaller body."""
    import gmsh

    inputs = [(3, t) for b in bodies for t in b.volumes]
    body_of_input = [k for k, b in enumerate(bodies) for _ in b.volumes]
    if len(inputs) == 1:
        return {inputs[0][1]: 0}, []
    _, children = gmsh.model.occ.fragment(inputs, [])
    gmsh.model.occ.synchronize()
    owners: dict[int, set[int]] = {}
    for k, kids in zip(body_of_input, children, strict=True):
        for dim, tag in kids:
            if dim == 3:
                owners.setdefault(tag, set()).add(k)
    notes = []
    owner: dict[int, int] = {}
    for tag, ks in owners.items():
        chosen = min(ks, key=lambda k: bodies[k].volume)
        owner[tag] = chosen
        if len(ks) > 1:
            others = ", ".join(f"'{bodies[k].name}'" for k in sorted(ks) if k != chosen)
            notes.append(
                f"Bodies {others} and '{bodies[chosen].name}' overlap; the overlapping region is meshed "
                f"as part of '{bodies[chosen].name}' (the smaller body)."
            )
    return owner, sorted(set(notes))


def _apply_sizes(opts, body_of_volume: dict[int, int]) -> None:
    import gmsh

    # Our sizes are authoritative: gmsh would otherwise cap elements at the size it gives imported
    # CAD points (a fraction of the model size), whatever the user asked for.
    gmsh.option.setNumber("Mesh.MeshSizeFromPoints", 0)
    gmsh.option.setNumber("Mesh.MeshSizeMax", opts.largest())
    gmsh.option.setNumber("Mesh.MeshSizeMin", opts.min_size)
    gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", opts.elements_per_circle if opts.curvature else 0)
    if not opts.body_max_sizes:
        return
    fields = []
    by_body: dict[int, list[int]] = {}
    for vol, b in body_of_volume.items():
        by_body.setdefault(b, []).append(vol)
    for b, vols in by_body.items():
        f = gmsh.model.mesh.field.add("Constant")
        gmsh.model.mesh.field.setNumbers(f, "VolumesList", vols)
        gmsh.model.mesh.field.setNumber(f, "VIn", opts.size_of(b))
        gmsh.model.mesh.field.setNumber(f, "VOut", 1e22)
        gmsh.model.mesh.field.setNumber(f, "IncludeBoundary", 1)
        fields.append(f)
    m = gmsh.model.mesh.field.add("Min")
    gmsh.model.mesh.field.setNumbers(m, "FieldsList", fields)
    gmsh.model.mesh.field.setAsBackgroundMesh(m)


def _generate_3d(algorithm: str) -> None:
    """Raises AttemptFailed with gmsh's own diagnostics. Errors do not abort gmsh here, so Delaunay's
    boundary recovery can name the surfaces, nodes and intersection point involved (HXT only says
    that recovery failed)."""
    import gmsh

    gmsh.option.setNumber("Mesh.Algorithm3D", ALGORITHM_3D[algorithm])
    gmsh.option.setNumber("General.AbortOnError", 0)
    gmsh.logger.get()  # earlier messages belong to the import and 2D steps
    gmsh.logger.stop()
    gmsh.logger.start()
    crash = ""
    try:
        gmsh.model.mesh.generate(3)
    except Exception as exc:  # noqa: BLE001 - gmsh raises a bare Exception carrying its error text
        crash = str(exc)
    errors = [line.removeprefix("Error: ").strip() for line in _errors(gmsh)]
    empty = [t for _, t in gmsh.model.getEntities(3) if len(gmsh.model.mesh.getElementsByType(4, t)[0]) == 0]
    if not crash and not empty:
        return
    entities = [tag for dim, tag in gmsh.model.mesh.getLastEntityError() if dim == 2]
    node_tags = [int(t) for t in gmsh.model.mesh.getLastNodeError()]
    points: list[list[float]] = []
    for line in errors:
        m = re.search(r"intersection \(([-+\deE.,\s]+)\)", line)
        if m:
            points.append([float(x) for x in m.group(1).split(",")])
        m = re.search(r"Invalid boundary mesh \([^)]*\) on surface (\d+)", line)
        if m and int(m.group(1)) not in entities:
            entities.append(int(m.group(1)))
    for t in node_tags[:50]:
        try:
            coord, _, _, _ = gmsh.model.mesh.getNode(t)
            points.append([float(x) for x in coord])
        except Exception:  # noqa: BLE001 - a node may not exist any more after the failure
            continue
    detail = next((e for e in errors if "Invalid boundary mesh" in e), None) or (
        errors[0] if errors else crash
    )
    message = detail or f"no tetrahedra in volume {' '.join(map(str, empty))}"
    raise AttemptFailed(message, FailureDetails(message, entities, node_tags, points))


def mesh_cad(files: list[Path], unit: str, opts, algorithm: str) -> VolumeMesh:
    import gmsh

    # Large assemblies are healed only by the second attempt (Delaunay), after HXT has failed.
    bodies = load_step(files, unit, heal=True if algorithm == "delaunay" else None)
    body_of_volume, notes = _fragment(bodies)
    _apply_sizes(opts, body_of_volume)
    try:
        _generate_3d(algorithm)
    except AttemptFailed as failure:
        failure.details.surface = _surface_snapshot(list(body_of_volume))
        failure.details.body_of_patch = _patch_bodies(body_of_volume, bodies)
        raise
    mesh = _extract(body_of_volume, [b.name for b in bodies], MESHER_LABEL[algorithm])
    mesh.notes = notes
    del gmsh
    return mesh


def _patch_bodies(body_of_volume: dict[int, int], bodies: list[CadBody]) -> dict[int, str]:
    import gmsh

    out = {}
    for _, s in gmsh.model.getEntities(2):
        up, _ = gmsh.model.getAdjacencies(2, s)
        names = [bodies[body_of_volume[v]].name for v in up if v in body_of_volume]
        if names:
            out[int(s)] = " / ".join(sorted(set(names)))
    return out


def _surface_snapshot(volumes: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The 2D mesh of the model's surfaces (what the 3D mesher was given), for problem markers."""
    import gmsh

    try:
        xyz, index = _node_index()
    except Exception:  # noqa: BLE001 - no mesh at all
        return None
    tris, patches = [], []
    for _, s in gmsh.model.getEntities(2):
        t = _surface_triangles(s, index)
        if len(t):
            tris.append(t)
            patches.append(np.full(len(t), s))
    if not tris:
        return None
    faces = np.vstack(tris)
    used, inv = np.unique(faces, return_inverse=True)
    return xyz[used], inv.reshape(-1, 3), np.concatenate(patches)


def _extract(body_of_volume: dict[int, int], names: list[str], mesher: str) -> VolumeMesh:
    import gmsh

    xyz, index = _node_index()
    tets, regions = [], []
    for vol, body in body_of_volume.items():
        _, nodes = gmsh.model.mesh.getElementsByType(4, vol)
        t = index[np.asarray(nodes, dtype=np.int64).reshape(-1, 4)]
        tets.append(t)
        regions.append(np.full(len(t), body))
    faces, patches = [], []
    for _, s in gmsh.model.getEntities(2):
        up, _ = gmsh.model.getAdjacencies(2, s)
        if not any(v in body_of_volume for v in up):
            continue
        t = _surface_triangles(s, index)
        faces.append(t)
        patches.append(np.full(len(t), s))
    return VolumeMesh(
        vertices=xyz,
        tets=np.vstack(tets),
        regions=np.concatenate(regions),
        region_names=names,
        faces=np.vstack(faces) if faces else np.zeros((0, 3), dtype=np.int64),
        face_patches=np.concatenate(patches) if patches else np.zeros(0, dtype=np.int64),
        mesher=mesher,
    )


# ------------------------------------------------------------------------------ triangle surfaces


def region_shells(
    vertices, faces, inside, outside, patch, region: int
) -> list[tuple[list[int], list[list[int]]]]:
    """The closed shells bounding one region, grouped as (outer patches, [hole patches, …]) per
    connected piece of the region."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    from fieldline_engine.geometry.surface import edge_table

    rows = np.nonzero((inside == region) | (outside == region))[0]
    f = faces[rows]
    table = edge_table(f)
    order = np.argsort(table.edge, kind="stable")
    e_sorted = table.edge[order]
    same = e_sorted[1:] == e_sorted[:-1]
    a, b = table.face[order[:-1][same]], table.face[order[1:][same]]
    graph = coo_matrix((np.ones(len(a)), (a, b)), shape=(len(f), len(f)))
    n, label = connected_components(graph, directed=False)
    shells = []
    for k in range(n):
        members = np.nonzero(label == k)[0]
        tri = f[members]
        oriented = np.where((inside[rows[members]] == region)[:, None], tri, tri[:, ::-1])
        pts = vertices[np.unique(tri)]
        size = float(np.prod(np.ptp(pts, axis=0) + 1e-300))
        shells.append((size, sorted({int(p) for p in patch[rows[members]]}), oriented, pts[0]))
    shells.sort(key=lambda s: -s[0])
    groups: list[tuple[list[int], list[list[int]], np.ndarray]] = []
    for _, patches, oriented, probe in shells:
        home = None
        for g in groups:
            if abs(winding_numbers(vertices, g[2], probe[None, :])[0]) > 0.5:
                home = g  # the smallest enclosing outer shell comes last in size order
        if home is None:
            groups.append((patches, [], oriented))
        else:
            home[1].append(patches)
    return [(g[0], g[1]) for g in groups]


def mesh_triangles(prepared, opts, algorithm: str) -> VolumeMesh:
    """Tetrahedralises a repaired, refined surface keeping its triangles: each patch becomes a discrete
    gmsh surface and each body a volume bounded by its shells."""
    import gmsh

    v, f, patch = prepared.vertices, prepared.faces, prepared.patch
    inside, outside = prepared.inside, prepared.outside
    patch_ids = np.unique(patch)
    owner = np.full(len(v), -1, dtype=np.int64)
    for p in patch_ids[::-1]:
        owner[np.unique(f[patch == p])] = p
    for p in patch_ids:
        gmsh.model.addDiscreteEntity(2, int(p))
        nodes = np.nonzero(owner == p)[0]
        if len(nodes):
            gmsh.model.mesh.addNodes(2, int(p), nodes + 1, v[nodes].ravel())
    for p in patch_ids:
        gmsh.model.mesh.addElementsByType(int(p), 2, [], (f[patch == p] + 1).ravel())
    body_of_volume: dict[int, int] = {}
    regions = sorted({int(r) for r in np.concatenate([inside, outside]) if r >= 0})
    for r in regions:
        for outer, holes in region_shells(v, f, inside, outside, patch, r):
            loops = [gmsh.model.geo.addSurfaceLoop(outer)] + [gmsh.model.geo.addSurfaceLoop(h) for h in holes]
            vol = gmsh.model.geo.addVolume(loops)
            body_of_volume[vol] = r
    gmsh.model.geo.synchronize()
    _apply_sizes(opts, body_of_volume)
    gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 0)
    _generate_3d(algorithm)
    return _extract(body_of_volume, prepared.body_names, MESHER_LABEL[algorithm])
