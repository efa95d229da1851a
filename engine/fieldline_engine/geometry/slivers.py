"""The slivers a volume mesh still has after the mesher's own optimisation, and where they come from.

A sliver (a tetrahedron with a dihedral angle below SLIVER_DIHEDRAL_DEG) stiffens iterative solves and spoils
the field in it. gmsh's and Netgen's optimisers remove those they can move; what they leave has, in the cases
measured (docs/geometry.md, Slivers), all four corners on the model's surface: a feature thinner than the mesh
size, or two CAD faces meeting at a grazing angle, gives the surface triangles no room for a better element.
The report names those CAD faces so the user can remove the feature or refine there, and lists the elements
and surface triangles for the environment to mark."""

from typing import Any

import numpy as np

from fieldline_engine.geometry.quality import SLIVER_DIHEDRAL_DEG

LISTED = 5000  # elements and triangles sent for marking; the count is always exact
NAMED_FACES = 8
# The four triangles of a tetrahedron, by corner.
_TRIANGLES = [(1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2)]


def sliver_report(
    vertices: np.ndarray,
    tets: np.ndarray,
    faces: np.ndarray,
    face_patches: np.ndarray,
    min_dihedral: np.ndarray,
) -> dict[str, Any] | None:
    """None when the mesh has no sliver; else counts, the CAD faces involved, the elements and a sentence."""
    slivers = np.flatnonzero(min_dihedral < SLIVER_DIHEDRAL_DEG)
    if len(slivers) == 0:
        return None
    on_surface = np.zeros(len(vertices), dtype=bool)
    on_surface[faces.reshape(-1)] = True
    pinned = on_surface[tets[slivers]].all(axis=1)

    triangle_of = {tuple(sorted(f)): i for i, f in enumerate(faces.tolist())}
    touching: list[int] = []
    for t in tets[slivers].tolist():
        for a, b, c in _TRIANGLES:
            i = triangle_of.get(tuple(sorted((t[a], t[b], t[c]))))
            if i is not None:
                touching.append(i)
    triangles = np.unique(np.asarray(touching, dtype=np.int64))
    patches, counts = np.unique(face_patches[triangles], return_counts=True) if len(triangles) else ([], [])
    by_count = [int(p) for _, p in sorted(zip(counts, patches, strict=True), key=lambda x: -x[0])]
    named = by_count[:NAMED_FACES]
    more = f" and {len(by_count) - len(named)} more" if len(by_count) > len(named) else ""
    where = f" They sit at CAD faces {', '.join(map(str, named))}{more}." if named else ""
    message = (
        f"{len(slivers)} of {len(tets)} tetrahedra are slivers (a dihedral angle below "
        f"{SLIVER_DIHEDRAL_DEG:g}°) after optimisation, {int(pinned.sum())} of them with all four corners on "
        f"the surface, where a feature thinner than the mesh size or faces meeting at a grazing angle leave "
        f"no room for better elements.{where} Fields there are less accurate and iterative solvers slower: "
        "remove the feature in the CAD model, or give its body a smaller mesh size."
    )
    return {
        "count": int(len(slivers)),
        "on_surface": int(pinned.sum()),
        "cad_faces": by_count,
        "elements": slivers[:LISTED].tolist(),
        "surface_triangles": (triangles[:LISTED] + 1).tolist(),  # 1-based, as face lists are
        "message": message,
    }
