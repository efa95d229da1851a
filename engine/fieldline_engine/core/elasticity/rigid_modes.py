"""Rigid-body motions the supports leave free, found before any solve.

The six rigid motions (three translations, three rotations about the model's centre) evaluated at every
constrained (vertex, component) give a matrix C; its null space is the set of rigid motions no support
resists. A model with any such motion has a singular stiffness matrix: it is refused with the motions
named ("the model can still translate along z and rotate about x"), never with a solver trace.
"""

import numpy as np

from fieldline_engine.core.elasticity.setup import ElasticSetup
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel

AXES = ("x", "y", "z")


def rigid_motions(points: np.ndarray, centre: np.ndarray, size: float) -> np.ndarray:
    """(n, 3, 6): displacement of each point under unit translations x, y, z and rotations about x, y, z
    (rotations scaled by the model size so the six columns are commensurate)."""
    d = (points - centre) / size
    n = len(points)
    out = np.zeros((n, 3, 6))
    for k in range(3):
        out[:, k, k] = 1.0
    # ω × d for ω = e_x, e_y, e_z
    out[:, 1, 3], out[:, 2, 3] = -d[:, 2], d[:, 1]
    out[:, 0, 4], out[:, 2, 4] = d[:, 2], -d[:, 0]
    out[:, 0, 5], out[:, 1, 5] = -d[:, 1], d[:, 0]
    return out


def rigid_modes_at_vertex_dofs(points: np.ndarray) -> np.ndarray:
    """(3n × 6): the six rigid motions as DOF vectors of a first-order VectorH1 on these vertices (blocks x, y,
    z of vertex values) — the near-null space smoothed-aggregation AMG keeps for elasticity."""
    size = float(np.linalg.norm(points.max(axis=0) - points.min(axis=0))) or 1.0
    modes = rigid_motions(points, points.mean(axis=0), size)  # (n, 3, 6)
    return np.concatenate([modes[:, k, :] for k in range(3)])


def free_rigid_motions(model: TetModel, setup: ElasticSetup) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Free translation directions and free rotation axes (unit vectors), from the supports' constraints."""
    centre = model.vertices.mean(axis=0)
    size = float(np.linalg.norm(model.vertices.max(axis=0) - model.vertices.min(axis=0))) or 1.0
    rows: list[np.ndarray] = []
    for support in setup.supports:
        vertices = support.vertices(model.faces)
        modes = rigid_motions(model.vertices[vertices], centre, size)
        for axis, value in enumerate(support.values):
            if value is not None:
                rows.append(modes[:, axis, :])
    constraints = np.concatenate(rows) if rows else np.zeros((0, 6))
    if constraints.shape[0] == 0:
        null = np.eye(6)
    else:
        # Only V (6 × 6) is needed: the full U of a tall (m × 6) matrix is m × m — 0.3 s for the ~3 000
        # constrained components of a 53 k-unknown model, and gigabytes for a large supported face.
        _, s, vt = np.linalg.svd(constraints, full_matrices=constraints.shape[0] < 6)
        rank = int(np.sum(s > 1e-8 * max(s.max(), 1e-300)))
        null = vt[rank:].T  # (6, d)
    if null.shape[1] == 0:
        return [], []
    rotational = null[3:, :]
    u, s, _ = np.linalg.svd(rotational, full_matrices=False)
    rot_rank = int(np.sum(s > 1e-8))
    axes = [u[:, i] for i in range(rot_rank)]
    # Translations: null vectors with no rotational part.
    if rot_rank < null.shape[1]:
        _, _, vt2 = np.linalg.svd(rotational, full_matrices=True)
        pure = null @ vt2[rot_rank:].T
        t, st, _ = np.linalg.svd(pure[:3, :], full_matrices=False)
        translations = [t[:, i] for i in range(int(np.sum(st > 1e-8)))]
    else:
        translations = []
    return translations, axes


def _direction(v: np.ndarray) -> str:
    v = v / np.linalg.norm(v)
    k = int(np.argmax(np.abs(v)))
    if abs(v[k]) > 0.999:
        return AXES[k]
    return "(" + ", ".join(f"{c:.2f}" for c in v) + ")"


def _basis_names(vectors: list[np.ndarray]) -> list[str]:
    """Axis names for a subspace: all three axes for a 3-D one, else each basis direction."""
    if len(vectors) == 3:
        return ["x", "y", "z"]
    if len(vectors) == 2:
        normal = np.cross(vectors[0], vectors[1])
        k = int(np.argmax(np.abs(normal)))
        if abs(normal[k]) / np.linalg.norm(normal) > 0.999:
            return [a for i, a in enumerate(AXES) if i != k]
    return [_direction(v) for v in vectors]


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def require_no_rigid_motion(model: TetModel, setup: ElasticSetup) -> None:
    translations, axes = free_rigid_motions(model, setup)
    if not translations and not axes:
        return
    parts = []
    if translations:
        parts.append(f"translate along {_join(_basis_names(translations))}")
    if axes:
        parts.append(f"rotate about {_join(_basis_names(axes))}")
    raise InvalidInput(
        f"The model is not held in place: it can still {' and '.join(parts)}; add supports "
        "(fixed supports or displacement conditions on faces, edges or points) that stop these motions."
    )
