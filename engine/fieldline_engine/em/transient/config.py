"""The time-domain part of the analysis config (spec 001 §3, §9 plus the pulse parameters of issue 7).

timeStep (s, default 1e-10), endTime (s, default 1e-9), timeScheme (newmark | explicit | implicit);
pulseShape/pulseWidth/pulseDelay/pulseFrequency (waveforms.py); probePoints ([x, y, z] in model units, or
{name, point}); volumeCurrents ({density: [Jx, Jy, Jz] A/m², region?, boxMin?, boxMax?, phase?}).
"""

import math
from dataclasses import dataclass
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.em.transient.schemes import SCHEMES
from fieldline_engine.em.transient.sources import VolumeCurrent
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel

DEFAULT_TIME_STEP = 1e-10
DEFAULT_END_TIME = 1e-9


@dataclass
class TimeGrid:
    scheme: str
    time_step: float
    end_time: float
    steps: int


def time_grid(config: dict[str, Any]) -> TimeGrid:
    scheme = str(config.get("timeScheme") or "newmark")
    if scheme not in SCHEMES:
        raise InvalidInput(f"timeScheme '{scheme}' is not one of {', '.join(SCHEMES)}.")
    dt = _positive(config, "timeStep", DEFAULT_TIME_STEP)
    end = _positive(config, "endTime", DEFAULT_END_TIME)
    if dt > end:
        raise InvalidInput(f"timeStep ({dt:g} s) is longer than endTime ({end:g} s).")
    steps = max(1, int(math.ceil(end / dt - 1e-9)))
    return TimeGrid(scheme, dt, steps * dt, steps)


def _positive(config: dict[str, Any], key: str, default: float) -> float:
    raw = config.get(key)
    value = default if raw is None else float(raw)
    if not math.isfinite(value) or value <= 0:
        raise InvalidInput(f"{key} must be a positive number of seconds.")
    return value


def probe_points(
    model: TetModel, config: dict[str, Any]
) -> tuple[list[tuple[float, float, float]], list[str]]:
    """Probe points in metres and their names; without any, one probe inside the model near its centre."""
    points: list[tuple[float, float, float]] = []
    names: list[str] = []
    for i, entry in enumerate(config.get("probePoints") or []):
        point = entry.get("point") if isinstance(entry, dict) else entry
        name = entry.get("name") if isinstance(entry, dict) and entry.get("name") else f"P{i + 1}"
        try:
            xyz = tuple(float(c) * model.unit_scale for c in point)
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"probePoints[{i}] must be [x, y, z] in model units.") from exc
        if len(xyz) != 3 or not all(math.isfinite(c) for c in xyz):
            raise InvalidInput(f"probePoints[{i}] must be [x, y, z] in model units.")
        points.append(xyz)  # type: ignore[arg-type]
        names.append(str(name))
    if not points:
        centroids = model.vertices[model.tetrahedra].mean(axis=1)
        centre = 0.5 * (model.vertices.min(axis=0) + model.vertices.max(axis=0))
        best = centroids[int(np.argmin(np.linalg.norm(centroids - centre, axis=1)))]
        points.append((float(best[0]), float(best[1]), float(best[2])))
        names.append("centre")
    return points, names


def volume_currents(model: TetModel, config: dict[str, Any], mesh: ng.Mesh) -> list[VolumeCurrent]:
    currents: list[VolumeCurrent] = []
    for i, entry in enumerate(config.get("volumeCurrents") or []):
        what = f"volumeCurrents[{i}]"
        try:
            density = tuple(float(c) for c in entry.get("density"))
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"{what}: density must be [Jx, Jy, Jz] in A/m².") from exc
        if len(density) != 3 or not any(density):
            raise InvalidInput(f"{what}: density must be a non-zero [Jx, Jy, Jz] in A/m².")
        factors: list[ng.CoefficientFunction] = []
        description: dict[str, object] = {"density_a_per_m2": list(density)}
        region = entry.get("region")
        if region is not None:
            index = _region_index(model, region)
            if index is None:
                raise InvalidInput(f"{what}: body '{region}' does not exist in this model.")
            factors.append(mesh.MaterialCF({f"body{index}": 1.0}, default=0.0))
            description["region"] = model.region_names[index]
        if entry.get("boxMin") is not None or entry.get("boxMax") is not None:
            lo = np.asarray(entry.get("boxMin"), dtype=np.float64) * model.unit_scale
            hi = np.asarray(entry.get("boxMax"), dtype=np.float64) * model.unit_scale
            if lo.shape != (3,) or hi.shape != (3,) or np.any(hi <= lo):
                raise InvalidInput(f"{what}: boxMin and boxMax must be [x, y, z] with boxMin < boxMax.")
            for axis, coord in enumerate((ng.x, ng.y, ng.z)):
                factors.append(ng.IfPos(coord - lo[axis], 1.0, 0.0) * ng.IfPos(hi[axis] - coord, 1.0, 0.0))
            description["box_m"] = [lo.tolist(), hi.tolist()]
        indicator = None
        for f in factors:
            indicator = f if indicator is None else indicator * f
        phase = float(entry.get("phase", 0.0) or 0.0)
        currents.append(VolumeCurrent(density, phase, indicator, description))  # type: ignore[arg-type]
    return currents


def _region_index(model: TetModel, ref: Any) -> int | None:
    if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
        i = int(ref)
        return i if 0 <= i < len(model.region_names) else None
    return model.region_names.index(ref) if ref in model.region_names else None
