"""When the adaptive passes stop, and how a quantity that does not converge is told apart.

- The change of a tracked value between passes: relative |q_k − q_{k−1}| / |q_k| (max over entries of an
  array, such as eigenfrequencies), or absolute max |q_k − q_{k−1}| (S-parameters: HFSS's max |ΔS|).
- A point value at a singularity (the stress at a re-entrant corner or at the edge of a clamped face)
  grows without bound as the elements there shrink: its changes keep one sign and do not shrink from pass
  to pass, where a converging value's changes fall geometrically. Four such changes in a row are called
  a singularity rather than spending the remaining passes on it. Three are not enough: a peak away from
  any singularity (a fillet's) also rises by growing steps while the first passes refine elsewhere and
  then reach it (a bracket's fillet: +1.2 %, +3.0 %, +14.5 %, then settling).
"""

from typing import Any

import numpy as np

from fieldline_engine.core.adaptive.estimate import Tracked

# A change at least this fraction of the one before it is "not shrinking".
NOT_SHRINKING = 0.75
SINGULAR_RUN = 4


def change_between(previous: Tracked | None, current: Tracked) -> float | None:
    if previous is None:
        return None
    a = np.asarray(previous.value, dtype=complex).ravel()
    b = np.asarray(current.value, dtype=complex).ravel()
    if a.shape != b.shape:
        return None
    diff = np.abs(b - a)
    if current.rule == "absolute":
        return float(diff.max()) if diff.size else 0.0
    scale = np.maximum(np.abs(b), 1e-300)
    return float((diff / scale).max()) if diff.size else 0.0


def signed_changes(values: list[Any]) -> list[float]:
    """Successive differences of a scalar quantity (empty for arrays)."""
    scalars = [v for v in values if isinstance(v, int | float)]
    if len(scalars) != len(values):
        return []
    return [float(b - a) for a, b in zip(scalars, scalars[1:], strict=False)]


def looks_singular(values: list[Any]) -> bool:
    """The last SINGULAR_RUN changes of a scalar all have one sign and none is much smaller than the one
    before: the value keeps moving the same way as the mesh refines (a singularity), not settling."""
    d = signed_changes(values)
    if len(d) < SINGULAR_RUN:
        return False
    last = d[-SINGULAR_RUN:]
    if any(x == 0 for x in last) or len({x > 0 for x in last}) != 1:
        return False
    mags = [abs(x) for x in last]
    return all(b >= NOT_SHRINKING * a for a, b in zip(mags, mags[1:], strict=False))
