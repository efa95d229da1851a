"""Which outer faces of a model face open space, and which bodies are metal.

The outer boundary of an uploaded model splits into closed surfaces (connected by shared edges). A
surface enclosed by another one is a hole in the model (in RF models usually a metal conductor whose
walls are PEC); the others are the model's outside, the surfaces an added air shell wraps.
"""

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from fieldline_engine.em.materials import BodyMaterial
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel

# Bodies at least this conductive are treated as perfect conductors on the full-wave path: their skin
# depth (≈ 2 µm for copper at 1 GHz) can never be resolved by the mesh, so their interior is left out
# of the solve and their surfaces are PEC. Graphite (~1e5 S/m) and every metal are above it.
METAL_CONDUCTIVITY = 1e5


def metal_bodies(bodies: list[BodyMaterial]) -> list[int]:
    return [i for i, b in enumerate(bodies) if min(b.conductivity) >= METAL_CONDUCTIVITY]


def refuse_metal_field_region(
    model: TetModel,
    labels: np.ndarray,
    ports: list[tuple[str, dict]],
    metal: list[int],
    n_bodies: int,
    pml: bool,
) -> None:
    """A wave port on a metal body, or (without the PML's added air) a model that is metal throughout,
    leaves no field to solve for: the factorization would fail with a bare solver error. Say why."""
    hint = (
        "Metal bodies (conductivity ≥ 1e5 S/m) are perfect conductors on the full-wave path and are "
        "left out of the solve: model the waveguide or cavity interior as its own body and give it air "
        "or a dielectric (set the default conductivity to 0, or use bodyMaterials)."
    )
    for n, (label, spec) in enumerate(ports, start=1):
        regions = {int(r) for r in np.unique(model.face_inner_region[labels == label])}
        if regions and regions <= set(metal):
            raise InvalidInput(f"Wave port {spec.get('portID', n)} lies on a metal body. {hint}")
    if not pml and n_bodies and len(metal) == n_bodies:
        raise InvalidInput(f"Every body of the model is metal, so no field region is left. {hint}")


def _surface_components(tris: np.ndarray) -> np.ndarray:
    """Component id per triangle; triangles sharing an edge are in the same component."""
    n = len(tris)
    edges = np.sort(tris[:, [[0, 1], [1, 2], [2, 0]]].reshape(-1, 2), axis=1)
    owner = np.repeat(np.arange(n), 3)
    _, edge_id = np.unique(edges, axis=0, return_inverse=True)
    edge_id = edge_id.reshape(-1)
    # triangle–edge incidence; two triangles are connected through a common edge
    inc = coo_matrix((np.ones(len(owner)), (owner, edge_id)), shape=(n, int(edge_id.max()) + 1)).tocsr()
    _, labels = connected_components(inc @ inc.T, directed=False)
    return labels


def winding_number(point: np.ndarray, vertices: np.ndarray, tris: np.ndarray) -> float:
    """Generalised winding number of a closed triangle surface around `point` (±1 inside, 0 outside),
    from the solid angles of the triangles (Van Oosterom & Strackee)."""
    a, b, c = (vertices[tris[:, i]] - point for i in range(3))
    la, lb, lc = (np.linalg.norm(v, axis=1) for v in (a, b, c))
    det = np.einsum("ij,ij->i", a, np.cross(b, c))
    den = (
        la * lb * lc
        + np.einsum("ij,ij->i", a, b) * lc
        + np.einsum("ij,ij->i", b, c) * la
        + np.einsum("ij,ij->i", c, a) * lb
    )
    return float(np.sum(2 * np.arctan2(det, den)) / (4 * np.pi))


def exterior_face_mask(model: TetModel) -> np.ndarray:
    """True for the outer faces that face open space (not enclosed by another outer surface)."""
    outer = np.nonzero(model.face_outer_region < 0)[0]
    mask = np.zeros(len(model.faces), dtype=bool)
    if len(outer) == 0:
        return mask
    tris = model.faces[outer]
    comp = _surface_components(tris)
    ids = np.unique(comp)
    pts = model.vertices[tris]
    lo = {d: pts[comp == d].min(axis=(0, 1)) for d in ids}
    hi = {d: pts[comp == d].max(axis=(0, 1)) for d in ids}
    for c in ids:
        rows = np.nonzero(comp == c)[0]
        probe = pts[rows[0]].mean(axis=0)
        # only surfaces whose bounding box holds the probe can enclose it (cheap with many holes)
        enclosed = any(
            abs(winding_number(probe, model.vertices, tris[comp == d])) > 0.5
            for d in ids
            if d != c and np.all(lo[d] <= probe) and np.all(probe <= hi[d])
        )
        if not enclosed:
            mask[outer[rows]] = True
    return mask
