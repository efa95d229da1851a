"""Which triangle of the unrefined model's surface each refined surface triangle was cut from.

Passes refine a model that was already refined; a new surface vertex must still go onto the surface of the
model as uploaded, not onto a surface rebuilt from the previous pass's facets (whose new vertices already
carry that pass's approximation: rebuilt pass after pass, a curved surface drifted and a flat cap next to a
curved wall warped a little more each pass). `TetModel.surface_origin` keeps, for every surface triangle of
a refined model (listed faces and interfaces alike), the sorted vertex triple of the unrefined model's
triangle it descends from. The unrefined model's vertices keep their indices and positions in every refined
model (Netgen appends new points; only new vertices are moved), so a triple names that triangle for good.
"""

import numpy as np

from fieldline_engine.mesh.tet_model import TetModel


def triple_keys(triples: np.ndarray, base: int) -> np.ndarray:
    """One int64 per sorted vertex triple (vertex indices below `base`)."""
    t = triples.astype(np.int64)
    return (t[:, 0] * base + t[:, 1]) * base + t[:, 2]


def find_triples(haystack: np.ndarray, needles: np.ndarray) -> np.ndarray:
    """Row of each sorted triple of `needles` in the sorted triples `haystack`, −1 where it is not there."""
    if len(haystack) == 0 or len(needles) == 0:
        return np.full(len(needles), -1, dtype=np.int64)
    base = int(max(haystack.max(), needles.max())) + 1
    keys = triple_keys(haystack, base)
    order = np.argsort(keys)
    wanted = triple_keys(needles, base)
    pos = np.clip(np.searchsorted(keys[order], wanted), 0, len(order) - 1)
    return np.where(keys[order][pos] == wanted, order[pos], -1)


def origin_triangles(model: TetModel, triangles: np.ndarray) -> np.ndarray:
    """The sorted vertex triple of the unrefined model's triangle each of `triangles` (surface triangles of
    `model`) was cut from; a triangle of an unrefined model, or one the record misses, is its own origin."""
    own = np.sort(np.asarray(triangles, dtype=np.int64).reshape(-1, 3), axis=1)
    record = model.surface_origin
    if record is None or len(own) == 0:
        return own
    row = find_triples(record[:, :3], own)
    return np.where((row >= 0)[:, None], record[np.maximum(row, 0), 3:], own)
