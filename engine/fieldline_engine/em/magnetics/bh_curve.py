"""A soft-iron B–H curve as NGSolve coefficient functions: H(|B|), and the energy density w(|B|) = ∫₀^|B| H db
whose variation gives the nonlinear curl-curl operator.

The table's points are joined linearly (H as a function of B; the inverse of a piecewise-linear, monotone
B(H) is piecewise linear too, so the table is honoured exactly both ways). Beyond the last point the curve
goes on with slope μ0 (the material is saturated: its magnetisation no longer grows).
"""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.em.constants import MU0
from fieldline_engine.errors import InvalidInput


def checked_table(curve: Any, what: str) -> np.ndarray:
    """[[H (A/m), B (T)], …] as an (n, 2) array starting at the origin; refused with the offending point."""
    if isinstance(curve, str):
        raise InvalidInput(
            f"{what}: B–H curve '{curve}' was not expanded into a table; library curves are expanded by the "
            "server (GET /api/materials), or give [[H (A/m), B (T)], …]."
        )
    try:
        table = np.asarray(curve, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"{what}: a B–H curve is a list of [H (A/m), B (T)] points.") from exc
    if table.ndim != 2 or table.shape[1] != 2 or len(table) < 2:
        raise InvalidInput(f"{what}: a B–H curve is a list of at least two [H (A/m), B (T)] points.")
    for k, (h, b) in enumerate(table):
        if not (np.isfinite(h) and np.isfinite(b)) or h < 0 or b < 0:
            raise InvalidInput(
                f"{what}: B–H point {k} [{h:g}, {b:g}]: H and B must be finite and not negative."
            )
        if k and not (h > table[k - 1, 0] and b > table[k - 1, 1]):
            raise InvalidInput(
                f"{what}: B–H point {k} [{h:g}, {b:g}]: the curve must be monotone — H and B must both rise "
                f"from point {k - 1} [{table[k - 1, 0]:g}, {table[k - 1, 1]:g}]."
            )
    if table[0, 0] > 0 or table[0, 1] > 0:
        table = np.vstack([[0.0, 0.0], table])
    h_last, b_last = table[-1]
    if h_last < b_last / MU0 * 1e-9:  # no curve is steeper than this; guards a table in kA/m or mT
        raise InvalidInput(f"{what}: the B–H curve's last point [{h_last:g}, {b_last:g}] is not physical.")
    return table


def extended(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """B and H knots: the table, mirrored once below 0 and continued with slope μ0 above its end."""
    b, h = table[:, 1], table[:, 0]
    tail = b[-1] + np.array([1.0, 10.0, 100.0])
    b_all = np.concatenate([[-b[1]], b, tail])
    h_all = np.concatenate([[-h[1]], h, h[-1] + (tail - b[-1]) / MU0])
    return b_all, h_all


class BhCurve:
    def __init__(self, table: np.ndarray):
        self.table = table
        b, h = extended(table)
        # Order 2: linear between knots. The leading knot repeats the first (BSpline's knot vector).
        self.h_of_b = ng.BSpline(2, [float(b[0]), *map(float, b)], list(map(float, h)))
        self.energy = self.h_of_b.Integrate()

    def h_at(self, b: np.ndarray) -> np.ndarray:
        """H (A/m) at flux densities b (T), on the same piecewise-linear curve (for checks and tests)."""
        b_k, h_k = extended(self.table)
        return np.interp(b, b_k, h_k)

    def b_at(self, h: np.ndarray) -> np.ndarray:
        b_k, h_k = extended(self.table)
        return np.interp(h, h_k, b_k)
