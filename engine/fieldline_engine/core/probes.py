"""Probe points of the H1 families (thermal, vibration): parsed from `probePoints` and checked against the
mesh, so that a point outside every element is left out with a warning (as the EM time domain does) instead
of failing the run inside NGSolve ("Meshpoint not in mesh!")."""

from typing import Any

import ngsolve as ng

from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel


def probe_points(model: TetModel, config: dict[str, Any]) -> dict[str, tuple[float, float, float]]:
    """Probe points (model units in the config) in metres, by name."""
    out: dict[str, tuple[float, float, float]] = {}
    for k, p in enumerate(config.get("probePoints") or []):
        name, point = (
            (p.get("name") or f"P{k + 1}", p.get("point")) if isinstance(p, dict) else (f"P{k + 1}", p)
        )
        if not isinstance(point, list | tuple) or len(point) != 3:
            raise InvalidInput(f"Probe {name}: a point needs three coordinates [x, y, z].")
        out[name] = tuple(float(c) * model.unit_scale for c in point)  # type: ignore[assignment]
    return out


def probes_inside(
    mesh: ng.Mesh, model: TetModel, points: dict[str, tuple[float, float, float]]
) -> tuple[dict[str, tuple[float, float, float]], list[str]]:
    """The probes inside some element, and a warning for each one left out (its point in model units)."""
    inside: dict[str, tuple[float, float, float]] = {}
    warnings: list[str] = []
    for name, point in points.items():
        if mesh(*point).nr >= 0:
            inside[name] = point
        else:
            shown = ", ".join(f"{c / model.unit_scale:g}" for c in point)
            warnings.append(f"Probe {name} at [{shown}] is outside the model and was left out.")
    return inside, warnings
