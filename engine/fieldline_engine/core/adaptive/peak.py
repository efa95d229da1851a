"""Goal-oriented marking for a peak quantity (`max_…`, `min_…`): the energy-norm estimate alone may refine
elsewhere for several passes while the peak's region stays coarse — the peak then barely moves and the
change rule stops on a false convergence (a bracket's fillet: 79.3 → 80.2 MPa, a 1.2 % change, with the
converged value near 94 MPa). So the passes also refine where the peak lives: every element touching a
vertex whose value is within PEAK_BAND of the peak (the whole high-stress band of a fillet, not one
vertex's ring, so a peak that moves along the band between passes is refined wherever it lands), at
most PEAK_SHARE of the elements, highest first."""

import numpy as np

from fieldline_engine.core.solution import Solution
from fieldline_engine.mesh.tet_model import TetModel

PEAK_BAND = 0.1
PEAK_SHARE = 0.15


def peak_elements(model: TetModel, name: str | None, solution: Solution) -> np.ndarray | None:
    """The tetrahedra to refine for the peak `name`, or None when it is not a located peak."""
    if name is None or not name.startswith(("max_", "min_")):
        return None
    location = solution.quantities.get(name.rsplit("_", 1)[0] + "_location")
    value = solution.quantities.get(name)
    if not isinstance(location, list | tuple) or len(location) != 3:
        return None
    point = np.asarray(location, dtype=float) * model.unit_scale
    vertex = int(np.argmin(np.linalg.norm(model.vertices - point, axis=1)))
    ring = np.any(model.tetrahedra == vertex, axis=1)
    values = _field_of_peak(model, solution, vertex, value)
    if values is None:
        return ring
    # Distance from the peak, as a fraction of it: 0 at the peak, for a maximum and a minimum alike.
    scale = max(abs(float(value)), 1e-300)
    gap = (float(value) - values) / scale if name.startswith("max_") else (values - float(value)) / scale
    element_gap = gap[model.tetrahedra].min(axis=1)
    band = np.flatnonzero(element_gap <= PEAK_BAND)
    limit = max(1, int(PEAK_SHARE * model.nt))
    if band.size > limit:
        band = band[np.argsort(element_gap[band], kind="stable")[:limit]]
    marked = ring.copy()
    marked[band] = True
    return marked


def _field_of_peak(model: TetModel, solution: Solution, vertex: int, value: object) -> np.ndarray | None:
    """The real scalar vertex field whose value at the peak's vertex is the peak (von Mises for
    max_von_mises_Pa, temperature for max_temperature_K): the quantities name no field, the values do."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    for f in solution.fields:
        if f.location != "vertex" or f.complex or f.values.ndim != 1 or f.size != model.nv:
            continue
        if abs(float(f.values[vertex]) - float(value)) <= 1e-9 * max(abs(float(value)), 1e-300):
            return np.asarray(f.values, dtype=float)
    return None
