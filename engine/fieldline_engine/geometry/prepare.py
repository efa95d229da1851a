"""From uploaded triangle bodies to a surface a tetrahedral mesher can use, or the problems that stop it.

Order of work (each step only sees what the previous left):
  weld → drop collapsed and duplicate triangles → split zero-area needles into their neighbour →
  fill holes (only with the user's consent: it changes the shape) → report remaining holes and
  non-manifold edges → make orientation consistent and outward → find self-intersections →
  decide for every triangle which body lies on each side (nesting, shared faces) → patches.

Safe repairs change no geometry and are always reported. With repair mode "none" nothing is changed
and every defect becomes a problem marker instead.
"""

from dataclasses import dataclass, field

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from fieldline_engine.geometry.diagnostics import Problem, Repair, fmt_point, list_ids, plural
from fieldline_engine.geometry.intersections import find_intersections
from fieldline_engine.geometry.mesh_io import SurfaceBody
from fieldline_engine.geometry.surface import (
    bbox_diagonal,
    edge_table,
    face_areas,
    face_components,
    manifold_pairs,
    sharp_edge_patches,
    signed_volume,
    weld_exact,
    weld_within,
    winding_numbers,
)

NEAR_WELD_REL = 1e-7
DEGENERATE_REL = 1e-12
MAX_PROBLEMS_PER_KIND = 50


@dataclass
class PreparedSurface:
    """Unique triangles, each oriented out of body `inside` into body `outside` (-1: the exterior)."""

    vertices: np.ndarray
    faces: np.ndarray
    inside: np.ndarray
    outside: np.ndarray
    patch: np.ndarray  # 1-based surface patch id (a CAD face, or a smooth region of a mesh)
    origin: np.ndarray  # index of the report triangle each triangle came from (-1: added by a repair)
    body_names: list[str]
    body_volumes: list[float]


@dataclass
class Preparation:
    report_vertices: np.ndarray  # the uploaded surface, vertices welded: what problem markers index
    report_faces: np.ndarray
    report_body: np.ndarray
    body_names: list[str]
    repairs: list[Repair] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    surface: PreparedSurface | None = None


class _Work:
    """The surface being repaired, with the bookkeeping that maps it back to the report surface."""

    def __init__(self, vertices, faces, body, origin, cad_patch):
        self.vertices = vertices
        self.faces = faces
        self.body = body
        self.origin = origin
        self.cad_patch = cad_patch
        self.vertex_report = np.arange(len(vertices))  # report vertex behind each working vertex

    def keep(self, mask: np.ndarray) -> None:
        self.faces, self.body, self.origin = self.faces[mask], self.body[mask], self.origin[mask]
        self.cad_patch = self.cad_patch[mask]

    def append(self, faces, body, origin, cad_patch) -> None:
        self.faces = np.vstack([self.faces, faces])
        self.body = np.concatenate([self.body, body])
        self.origin = np.concatenate([self.origin, origin])
        self.cad_patch = np.concatenate([self.cad_patch, cad_patch])

    def report_faces(self, rows) -> list[int]:
        o = self.origin[np.asarray(rows, dtype=np.int64)]
        return sorted({int(x) for x in o if x >= 0})


def prepare_surface(
    bodies: list[SurfaceBody], repair: str = "safe", allow_shape_repair: bool = False
) -> Preparation:
    names = unique_names([b.name for b in bodies])
    offsets = np.cumsum([0] + [len(b.vertices) for b in bodies])
    vertices = np.vstack([b.vertices for b in bodies]).astype(np.float64)
    faces = np.vstack([b.faces + off for b, off in zip(bodies, offsets[:-1], strict=True)]).astype(np.int64)
    body = np.concatenate([np.full(len(b.faces), i, dtype=np.int64) for i, b in enumerate(bodies)])
    cad_patch = np.concatenate(
        [b.patches if b.patches is not None else np.full(len(b.faces), -1) for b in bodies]
    ).astype(np.int64)
    report_v, report_f = weld_exact(vertices, faces)
    prep = Preparation(report_v, report_f, body, names)
    work = _Work(report_v, report_f.copy(), body.copy(), np.arange(len(report_f)), cad_patch)
    safe = repair != "none"
    diag = bbox_diagonal(report_v)

    if safe:
        _near_weld(work, diag, prep)
    _collapsed_and_duplicates(work, prep, safe)
    _needles(work, diag, prep, safe)
    if allow_shape_repair:
        _fill_holes(work, prep)
    _edge_problems(work, prep)
    _orientation(work, prep, safe)
    _self_intersections(work, prep)
    if prep.problems:
        return prep
    prep.surface = _assign_regions(work, prep)
    return prep


def unique_names(names: list[str]) -> list[str]:
    """Body names as shown: blanks become 'body', repeats get ' (2)', ' (3)', …"""
    seen: dict[str, int] = {}
    out = []
    for n in names:
        n = n.strip() or "body"
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n} ({seen[n]})")
    return out


def _body_label(prep: Preparation, b: int) -> str:
    return f"body '{prep.body_names[b]}'" if len(prep.body_names) > 1 else "the surface"


def _near_weld(work: _Work, diag: float, prep: Preparation) -> None:
    tol = NEAR_WELD_REL * diag
    v, f, kept, merged = weld_within(work.vertices, work.faces, tol)
    if merged:
        work.vertices, work.faces = v, f
        work.vertex_report = work.vertex_report[kept]
        prep.repairs.append(
            Repair(
                "merge_vertices",
                f"Merged {merged} pairs of nearly coincident vertices (closer than {tol:.3g} model units) "
                "that left cracks between triangles.",
            )
        )


def _report_vertices(work: _Work, ids) -> list[int]:
    ids = np.asarray(ids, dtype=np.int64)
    ids = ids[ids < len(work.vertex_report)]  # vertices added by repairs are not in the report surface
    return sorted({int(x) for x in work.vertex_report[ids]})


def _collapsed_and_duplicates(work: _Work, prep: Preparation, safe: bool) -> None:
    f = work.faces
    collapsed = (f[:, 0] == f[:, 1]) | (f[:, 1] == f[:, 2]) | (f[:, 2] == f[:, 0])
    key = np.column_stack([work.body, np.sort(f, axis=1)])
    _, first = np.unique(key, axis=0, return_index=True)
    duplicate = np.ones(len(f), dtype=bool)
    duplicate[first] = False
    duplicate &= ~collapsed
    for mask, kind, what in (
        (collapsed, "degenerate_triangle", "collapsed to a line or point (two corners are the same vertex)"),
        (duplicate, "duplicate_triangle", "repeat another triangle of the same body exactly"),
    ):
        rows = np.nonzero(mask)[0]
        if not len(rows):
            continue
        ids = work.report_faces(rows)
        if safe:
            prep.repairs.append(
                Repair(
                    f"remove_{kind}",
                    f"Removed {plural(len(rows), 'triangle')} that {what}: triangles {list_ids(ids)}.",
                    ids,
                )
            )
        else:
            label = "degenerate_triangle" if kind == "degenerate_triangle" else "overlapping_triangles"
            prep.problems.append(
                Problem(
                    label,
                    f"{plural(len(rows), 'triangle')} {what} (zero volume / overlapping): triangles {list_ids(ids)}.",
                    faces=ids,
                    vertices=_report_vertices(work, work.faces[rows].ravel()),
                )
            )
    if safe:
        work.keep(~(collapsed | duplicate))


def _needles(work: _Work, diag: float, prep: Preparation, safe: bool) -> None:
    """Zero-area triangles with three distinct corners: one corner lies on the opposite side. Safe fix:
    split the neighbour across that side at the corner and drop the needle (no geometry changes)."""
    v, f = work.vertices, work.faces
    if not len(f):
        return
    e = np.stack([v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 1]], v[f[:, 0]] - v[f[:, 2]]], axis=1)
    longest = np.linalg.norm(e, axis=2).max(axis=1)
    area = face_areas(v, f)
    needle = np.nonzero(area <= DEGENERATE_REL * np.maximum(longest, diag * 1e-9) ** 2 + 0.0)[0]
    if not len(needle):
        return
    fixed: list[int] = []
    unfixed: list[int] = []
    remove = np.zeros(len(f), dtype=bool)
    new_faces: list[list[int]] = []
    new_rows: list[int] = []
    if safe:
        table = edge_table(f, work.body)
        sides_of_edge: dict[int, list[int]] = {}
        needle_set = set(needle.tolist())
        for side in np.nonzero(np.isin(table.face, needle))[0]:
            sides_of_edge.setdefault(int(table.edge[side]), [])
        for side in np.nonzero(np.isin(table.edge, list(sides_of_edge)))[0]:
            sides_of_edge[int(table.edge[side])].append(int(side))
        touched: set[int] = set()
        for t in needle:
            lengths = np.linalg.norm(e[t], axis=1)
            k = int(np.argmax(lengths))  # side k runs f[t,k] → f[t,k+1]; the middle corner is opposite
            u, w, m = f[t, k], f[t, (k + 1) % 3], f[t, (k + 2) % 3]
            edge_id = int(table.edge[3 * t + k])
            others = [table.face[s] for s in sides_of_edge.get(edge_id, []) if table.face[s] != t]
            if len(others) != 1 or others[0] in needle_set or others[0] in touched or t in touched:
                unfixed.append(int(t))
                continue
            g = int(others[0])
            tri = list(f[g])
            a = [tri[i] if tri[i] != u else m for i in range(3)]
            b = [tri[i] if tri[i] != w else m for i in range(3)]
            if m in tri:
                unfixed.append(int(t))
                continue
            remove[[t, g]] = True
            touched.update((int(t), g))
            new_faces += [a, b]
            new_rows += [g, g]
            fixed.append(int(t))
    else:
        unfixed = needle.tolist()
    if fixed:
        ids = work.report_faces(fixed)
        prep.repairs.append(
            Repair(
                "split_needle",
                f"Removed {plural(len(fixed), 'zero-area triangle')} whose corners lie on one line "
                f"(triangles {list_ids(ids)}) by splitting their neighbours; the shape is unchanged.",
                ids,
            )
        )
        rows = np.asarray(new_rows)
        keep = ~remove
        nf = np.asarray(new_faces, dtype=np.int64)
        body, origin, cad = work.body[rows], work.origin[rows], work.cad_patch[rows]
        work.keep(keep)
        work.append(nf, body, origin, cad)
    if unfixed:
        ids = work.report_faces(unfixed)
        prep.problems.append(
            Problem(
                "degenerate_triangle",
                f"{plural(len(unfixed), 'triangle')} {'has' if len(unfixed) == 1 else 'have'} zero area (degenerate, zero volume): triangles {list_ids(ids)}"
                + (" could not be repaired automatically." if safe else "."),
                faces=ids,
                vertices=_report_vertices(work, f[unfixed].ravel()),
                point=[float(x) for x in v[f[unfixed[0]]].mean(axis=0)],
            )
        )


def _boundary_loops(work: _Work) -> tuple[object, list[np.ndarray]]:
    table = edge_table(work.faces, work.body)
    open_edges = np.nonzero(table.edge_count == 1)[0]
    if not len(open_edges):
        return table, []
    ev = table.edge_vertices[open_edges]
    n = len(work.vertices)
    graph = coo_matrix((np.ones(len(ev)), (ev[:, 0], ev[:, 1])), shape=(n, n))
    _, label = connected_components(graph, directed=False)
    loops: dict[int, list[int]] = {}
    for e, lab in zip(open_edges, label[ev[:, 0]], strict=True):
        loops.setdefault(int(lab), []).append(int(e))
    return table, [np.asarray(v) for v in loops.values()]


def _fill_holes(work: _Work, prep: Preparation) -> None:
    """Closes each open boundary loop with a fan around its centroid (changes the shape: consent only)."""
    table, loops = _boundary_loops(work)
    filled_faces: list[int] = []
    count = 0
    for loop in loops:
        sides = np.nonzero(np.isin(table.edge, loop))[0]
        nxt = {int(table.tail[s]): int(table.head[s]) for s in sides}
        if len(nxt) != len(sides):
            continue  # a vertex with two open sides: not a simple loop
        start = int(table.tail[sides[0]])
        cycle = [start]
        while len(cycle) <= len(sides):
            h = nxt.get(cycle[-1])
            if h is None or h == start:
                break
            cycle.append(h)
        if len(cycle) != len(sides) or nxt.get(cycle[-1]) != start:
            continue
        body = int(work.body[table.face[sides[0]]])
        centre = work.vertices[cycle].mean(axis=0)
        c = len(work.vertices)
        work.vertices = np.vstack([work.vertices, centre])
        ring = np.asarray(cycle)
        new = np.stack([np.roll(ring, -1), ring, np.full(len(ring), c)], axis=1)
        work.append(new, np.full(len(new), body), np.full(len(new), -1), np.full(len(new), -1))
        filled_faces += work.report_faces(table.face[sides])
        count += 1
    if count:
        prep.repairs.append(
            Repair(
                "fill_holes",
                f"Closed {plural(count, 'hole')} with new triangles (you allowed shape-changing repairs); "
                f"they bordered triangles {list_ids(sorted(set(filled_faces)))}.",
                sorted(set(filled_faces)),
            )
        )


def _edge_problems(work: _Work, prep: Preparation) -> None:
    table, loops = _boundary_loops(work)
    v = work.vertices
    for loop in loops[:MAX_PROBLEMS_PER_KIND]:
        faces = np.unique(table.face[np.isin(table.edge, loop)])
        verts = np.unique(table.edge_vertices[loop])
        body = int(work.body[faces[0]])
        ids = work.report_faces(faces)
        prep.problems.append(
            Problem(
                "open_boundary",
                f"Open boundary (a hole) in {_body_label(prep, body)}: {len(loop)} edges around "
                f"{fmt_point(v[verts].mean(axis=0))} belong to only one triangle; the surface mesh is not "
                f"watertight there. Triangles {list_ids(ids)} border the hole.",
                faces=ids,
                vertices=_report_vertices(work, verts),
                point=[float(x) for x in v[verts].mean(axis=0)],
                body=prep.body_names[body],
            )
        )
    _summarise_overflow(prep, "open_boundary", len(loops))

    bad = np.nonzero(table.edge_count > 2)[0]
    if not len(bad):
        return
    ev = table.edge_vertices[bad]
    n = len(v)
    graph = coo_matrix((np.ones(len(ev)), (ev[:, 0], ev[:, 1])), shape=(n, n))
    _, label = connected_components(graph, directed=False)
    chains: dict[int, list[int]] = {}
    for e, lab in zip(bad, label[ev[:, 0]], strict=True):
        chains.setdefault(int(lab), []).append(int(e))
    for chain in list(chains.values())[:MAX_PROBLEMS_PER_KIND]:
        sides = np.nonzero(np.isin(table.edge, chain))[0]
        faces = np.unique(table.face[sides])
        verts = np.unique(table.edge_vertices[chain])
        ids = work.report_faces(faces)
        body = int(work.body[faces[0]])
        a, b = table.edge_vertices[chain[0]]
        count = int(table.edge_count[chain[0]])
        where = fmt_point((v[a] + v[b]) / 2)
        what = (
            f"The edge between vertices {_report_vertices(work, [a])[0]} and {_report_vertices(work, [b])[0]} at {where} is "
            f"shared by {count} triangles"
            if len(chain) == 1
            else f"{len(chain)} connected edges starting at {where} are each shared by more than two triangles"
        )
        prep.problems.append(
            Problem(
                "non_manifold_edge",
                f"{what} (non-manifold edge) in {_body_label(prep, body)}: triangles {list_ids(ids)}.",
                faces=ids,
                vertices=_report_vertices(work, verts),
                point=[float(x) for x in (v[a] + v[b]) / 2],
                body=prep.body_names[body],
            )
        )
    _summarise_overflow(prep, "non_manifold_edge", len(chains))


def _summarise_overflow(prep: Preparation, kind: str, total: int) -> None:
    if total > MAX_PROBLEMS_PER_KIND:
        prep.problems.append(
            Problem(kind, f"… and {total - MAX_PROBLEMS_PER_KIND} more places with the same problem.")
        )


def _orientation(work: _Work, prep: Preparation, safe: bool) -> None:
    """Makes every connected part consistently oriented and its normals point out of its body."""
    f = work.faces
    if not len(f):
        return
    table = edge_table(f, work.body)
    s1, s2 = manifold_pairs(table)
    f1, f2 = table.face[s1], table.face[s2]
    # Two sides of one edge in the same direction: the two triangles disagree on orientation.
    parity = (table.tail[s1] == table.tail[s2]).astype(np.int8)
    m = len(f)
    comp, flip = _orientation_labels(m, f1, f2, parity)
    ncomp = int(comp.max()) + 1
    conflict = (flip[f1] ^ flip[f2]) != parity
    if conflict.any():
        bad = np.unique(np.concatenate([f1[conflict], f2[conflict]]))
        ids = work.report_faces(bad)
        prep.problems.append(
            Problem(
                "inconsistent_orientation",
                f"The surface mesh cannot be oriented consistently (a Möbius-like twist or a fold): "
                f"triangles {list_ids(ids)} disagree with their neighbours whichever way they face.",
                faces=ids,
                vertices=_report_vertices(work, f[bad].ravel()),
            )
        )
        return
    # Per part: choose the state so it points outward (closed parts) or agrees with its majority.
    oriented = f.copy()
    oriented[flip == 1] = oriented[flip == 1][:, ::-1]
    final = flip.copy()
    comp_closed = _closed_components(table, comp, ncomp)
    depth = _cavity_depth(work.vertices, oriented, work.body, comp, ncomp, comp_closed)
    for c in range(ncomp):
        members = comp == c
        if comp_closed[c]:
            vol = signed_volume(work.vertices, oriented[members])
            want_positive = depth[c] % 2 == 0
            if (vol > 0) != want_positive:
                final[members] ^= 1
        elif final[members].sum() * 2 > members.sum():
            final[members] ^= 1
    changed = np.nonzero(final == 1)[0]
    if not len(changed):
        return
    ids = work.report_faces(changed)
    inward_parts = [c for c in range(ncomp) if (final[comp == c] == 1).all() and (comp == c).sum() > 1]
    if safe:
        work.faces[changed] = work.faces[changed][:, ::-1]
        text = (
            f"Reversed {plural(len(changed), 'triangle')} whose orientation disagreed with their neighbours "
            f"or pointed into the body: triangles {list_ids(ids)}."
        )
        if len(inward_parts) == ncomp:
            text = f"Turned the surface outward: all {len(changed)} triangles pointed into the body."
        prep.repairs.append(Repair("fix_orientation", text, ids))
    else:
        prep.problems.append(
            Problem(
                "inconsistent_orientation",
                f"{plural(len(changed), 'triangle')} {'faces' if len(changed) == 1 else 'face'} the wrong way (inconsistent orientation in the surface mesh): "
                f"triangles {list_ids(ids)}.",
                faces=ids,
                vertices=_report_vertices(work, f[changed].ravel()),
                point=[float(x) for x in work.vertices[f[changed[0]]].mean(axis=0)],
            )
        )


def _orientation_labels(m: int, f1, f2, parity) -> tuple[np.ndarray, np.ndarray]:
    """Connected parts and, per triangle, whether it must flip to agree with its part's first triangle.

    Solved on a doubled graph: node (f, s) means "triangle f in state s". An edge with parity p joins
    (f1, s) to (f2, s xor p). A triangle's two states fall in one component only on a twisted part.
    """
    graph = coo_matrix((np.ones(len(f1)), (f1, f2)), shape=(m, m))
    _, comp = connected_components(graph, directed=False)
    rows = np.concatenate([2 * f1, 2 * f1 + 1])
    cols = np.concatenate([2 * f2 + parity, 2 * f2 + (1 - parity)])
    doubled = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(2 * m, 2 * m))
    _, label = connected_components(doubled, directed=False)
    root = np.full(comp.max() + 1, m, dtype=np.int64)
    np.minimum.at(root, comp, np.arange(m))
    flip = (label[2 * np.arange(m)] != label[2 * root[comp]]).astype(np.int8)
    return comp, flip


def _closed_components(table, comp: np.ndarray, ncomp: int) -> np.ndarray:
    open_side = table.edge_count[table.edge] != 2
    closed = np.ones(ncomp, dtype=bool)
    closed[np.unique(comp[table.face[open_side]])] = False
    return closed


def _cavity_depth(vertices, faces, body, comp, ncomp, closed) -> np.ndarray:
    """How many other closed parts of the same body enclose each part (odd: it bounds a cavity)."""
    depth = np.zeros(ncomp, dtype=np.int64)
    comp_body = np.zeros(ncomp, dtype=np.int64)
    comp_body[comp] = body
    for b in np.unique(comp_body):
        parts = [c for c in range(ncomp) if comp_body[c] == b and closed[c]]
        if len(parts) < 2:
            continue
        # A part is a cavity wall of another only if it lies entirely inside it (sampled vertices);
        # intersecting parts are reported as self-intersections instead.
        probes, lo, hi = {}, {}, {}
        for c in parts:
            ids = np.unique(faces[comp == c])
            probes[c] = vertices[ids[:: max(1, len(ids) // 16)]]
            lo[c], hi[c] = vertices[ids].min(axis=0), vertices[ids].max(axis=0)
        for c in parts:
            for d in parts:
                # Only a part whose bounding box holds c's can enclose it (keeps many parts cheap).
                if c == d or np.any(lo[c] < lo[d]) or np.any(hi[c] > hi[d]):
                    continue
                w = winding_numbers(vertices, faces[comp == d], probes[c])
                if np.all(np.abs(w) > 0.5):
                    depth[c] += 1
    return depth


def _self_intersections(work: _Work, prep: Preparation) -> None:
    f = work.faces
    if len(f) < 2:
        return
    # Zero-area triangles are reported on their own; they have no plane to intersect.
    positive = face_areas(work.vertices, f) > 0
    # A triangle two bodies share is one interface, not an intersection: test each vertex set once.
    _, first = np.unique(np.sort(f, axis=1), axis=0, return_index=True)
    first = np.sort(first)
    first = first[positive[first]]
    found = find_intersections(work.vertices, f[first])
    if not len(found.pairs):
        return
    pairs = first[found.pairs]
    m = len(f)
    graph = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(m, m))
    _, label = connected_components(graph, directed=False)
    clusters: dict[object, list[int]] = {}
    for k, lab in enumerate(label[pairs[:, 0]]):
        clusters.setdefault(int(lab), []).append(k)
    # Intersections between two bodies read better as one problem per pair of bodies.
    merged: dict[object, list[int]] = {}
    for lab, ks in clusters.items():
        bodies_in = tuple(sorted({int(b) for b in work.body[pairs[ks].ravel()]}))
        merged.setdefault(bodies_in if len(bodies_in) > 1 else lab, []).extend(ks)
    clusters = merged
    for ks in list(clusters.values())[:MAX_PROBLEMS_PER_KIND]:
        tri = np.unique(pairs[ks].ravel())
        ids = work.report_faces(tri)
        point = found.points[ks[0]]
        bodies = sorted({int(b) for b in work.body[tri]})
        kinds = {found.kinds[k] for k in ks}
        if len(bodies) > 1:
            names = " and ".join(f"'{prep.body_names[b]}'" for b in bodies)
            kind = "overlapping_bodies"
            text = (
                f"Bodies {names} intersect each other near {fmt_point(point)} (self-intersections between "
                f"bodies): triangles {list_ids(ids)}. Touching bodies must share identical triangles."
            )
        elif kinds == {"overlap"}:
            kind = "overlapping_triangles"
            text = (
                f"Triangles {list_ids(ids)} overlap each other in one plane near {fmt_point(point)} "
                f"(self-intersections) in {_body_label(prep, bodies[0])}."
            )
        else:
            kind = "self_intersection"
            verb = "touch each other's interior" if kinds == {"touching"} else "intersect each other"
            text = (
                f"Triangles {list_ids(ids)} {verb} near {fmt_point(point)} "
                f"(self-intersections) in {_body_label(prep, bodies[0])}."
            )
        prep.problems.append(
            Problem(
                kind,
                text,
                faces=ids,
                vertices=_report_vertices(work, f[tri].ravel()),
                point=[float(x) for x in point],
                body=prep.body_names[bodies[0]],
            )
        )
    _summarise_overflow(prep, "self_intersection", len(clusters))


def _assign_regions(work: _Work, prep: Preparation) -> PreparedSurface | None:
    v, f, body = work.vertices, work.faces, work.body
    nb = len(prep.body_names)
    volumes = [signed_volume(v, f[body == b]) for b in range(nb)]
    key = np.sort(f, axis=1)
    _, inverse, counts = np.unique(key, axis=0, return_inverse=True, return_counts=True)
    inverse = inverse.reshape(-1)
    copies = counts[inverse]
    shared_rows = np.nonzero(copies == 2)[0]
    # Two copies of one triangle: the bodies must lie on opposite sides (opposite orientation).
    order = shared_rows[np.argsort(inverse[shared_rows], kind="stable")]
    a_rows, b_rows = order[0::2], order[1::2]
    same_side = np.array([not _opposite(f[a], f[b]) for a, b in zip(a_rows, b_rows, strict=True)], dtype=bool)
    bad = list(np.nonzero(copies > 2)[0]) + list(a_rows[same_side]) + list(b_rows[same_side])
    if bad:
        ids = work.report_faces(bad)
        names = sorted({prep.body_names[int(b)] for b in body[bad]})
        prep.problems.append(
            Problem(
                "overlapping_bodies",
                f"Bodies {', '.join(repr(n) for n in names)} overlap: triangles {list_ids(ids)} are used by "
                "bodies on the same side of them (intersecting bodies).",
                faces=ids,
                vertices=_report_vertices(work, f[bad].ravel()),
            )
        )
        return None

    parent = _parents(v, f, body, copies, nb, volumes)
    single = np.nonzero(copies == 1)[0]
    rows = np.concatenate([single, a_rows])
    inside = np.concatenate([body[single], body[a_rows]])
    outside = np.concatenate([parent[body[single]], body[b_rows]])
    rows_order = np.argsort(rows, kind="stable")
    rows, inside, outside = rows[rows_order], inside[rows_order], outside[rows_order]
    faces = f[rows]
    group = inside * (nb + 1) + outside + 1
    cad = work.cad_patch[rows]
    if (cad >= 0).all():
        _, patch = np.unique(np.column_stack([group, cad]), axis=0, return_inverse=True)
        patch = _first_appearance(patch.reshape(-1))
    else:
        patch = sharp_edge_patches(v, faces, group)
    used = np.unique(faces)
    remap = np.full(len(v), -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    return PreparedSurface(
        vertices=v[used],
        faces=remap[faces],
        inside=inside,
        outside=outside,
        patch=patch + 1,
        origin=work.origin[rows],
        body_names=prep.body_names,
        body_volumes=[abs(x) for x in volumes],
    )


def _first_appearance(labels: np.ndarray) -> np.ndarray:
    _, first = np.unique(labels, return_index=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(np.argsort(first))] = np.arange(len(first))
    return rank[labels]


def _opposite(t1: np.ndarray, t2: np.ndarray) -> bool:
    """True when two triangles with the same corners list them in opposite cyclic order."""
    r = list(t2[::-1])
    k = r.index(t1[0])
    return [r[k], r[(k + 1) % 3], r[(k + 2) % 3]] == list(t1)


def _parents(v, f, body, copies, nb, volumes) -> np.ndarray:
    """The smallest other body enclosing each body (-1: none), from winding numbers."""
    parent = np.full(nb, -1, dtype=np.int64)
    if nb < 2:
        return parent
    lo = [v[np.unique(f[body == b])].min(axis=0) for b in range(nb)]
    hi = [v[np.unique(f[body == b])].max(axis=0) for b in range(nb)]
    areas = face_areas(v, f)
    for b in range(nb):
        own = np.nonzero((body == b) & (copies == 1))[0]
        if not len(own):
            continue
        probe = v[f[own[np.argmax(areas[own])]]].mean(axis=0)
        best, best_vol = -1, np.inf
        for c in range(nb):
            if c == b or np.any(probe < lo[c]) or np.any(probe > hi[c]):
                continue
            w = winding_numbers(v, f[body == c], probe[None, :])[0]
            if abs(w) > 0.5 and abs(volumes[c]) < best_vol:
                best, best_vol = c, abs(volumes[c])
        parent[b] = best
    return parent


def face_components_count(faces: np.ndarray) -> int:
    return face_components(len(faces), edge_table(faces))[0]
