"""The structural keys of the config (docs/structural.md), checked and resolved onto the model's faces.

`fixedSupports: [{faces}]` fixes every displacement component; `displacementConditions: [{faces,
displacement: [ux|null, uy|null, uz|null]}]` prescribes the given components (null = free, so a symmetry
plane is 0 on its normal component); `forceLoads: [{faces, force: [Fx, Fy, Fz]}]` is a total force in N
spread over the faces by area; `pressureLoads: [{faces, pressure}]` pushes into the body for positive
values (Pa); `gravity: [gx, gy, gz]` (m/s²) loads every body by its density. Face ids are 1-based
surface-triangle ids; a face carries at most one condition (core/regions.py refuses overlaps, naming the
face).
"""

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fieldline_engine.core.materials import MaterialTable, material_table
from fieldline_engine.core.regions import FaceLabeller
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel

DEFAULT_YOUNGS_MODULUS = 200e9  # Pa, structural steel
DEFAULT_POISSON_RATIO = 0.3
DEFAULT_DENSITY = 1000.0  # the spec's density default (spec 001 §9)


@dataclass
class Support:
    label: str
    name: str
    # per axis: the prescribed displacement (m), or None where the component is free
    values: tuple[float | None, float | None, float | None]
    rows: np.ndarray  # face rows (0-based) it covers


@dataclass
class ForceLoad:
    label: str
    name: str
    force: tuple[float, float, float]  # total, N


@dataclass
class PressureLoad:
    label: str
    name: str
    pressure: float  # Pa, positive into the body


@dataclass
class StructuralSetup:
    face_labels: np.ndarray
    supports: list[Support] = field(default_factory=list)
    forces: list[ForceLoad] = field(default_factory=list)
    pressures: list[PressureLoad] = field(default_factory=list)
    gravity: tuple[float, float, float] = (0.0, 0.0, 0.0)


def structural_materials(model: TetModel, config: dict[str, Any]) -> MaterialTable:
    table = material_table(
        model,
        config,
        {
            "youngsModulus": _number(config, "youngsModulus", DEFAULT_YOUNGS_MODULUS),
            "poissonRatio": _number(config, "poissonRatio", DEFAULT_POISSON_RATIO),
            "density": _number(config, "density", DEFAULT_DENSITY),
            "yieldStrength": _number(config, "yieldStrength", math.nan),
        },
    )
    table.require_positive("youngsModulus", "density")
    for i, nu in enumerate(table.column("poissonRatio")):
        if not -1.0 < nu < 0.5:
            raise InvalidInput(
                f"Material of body '{table.body_names[i]}': poissonRatio must be above −1 and below 0.5 "
                f"(got {nu:g}); 0.5 is incompressible, which displacement elements cannot represent."
            )
    return table


def _number(config: dict[str, Any], key: str, default: float) -> float:
    value = config.get(key)
    if value is None:
        return default
    try:
        out = float(value)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"{key} must be a number.") from exc
    if not math.isfinite(out):
        raise InvalidInput(f"{key} must be a finite number.")
    return out


def _vector(value: Any, what: str, allow_null: bool = False) -> tuple:
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise InvalidInput(f"{what} needs three components [x, y, z].")
    out = []
    for v in value:
        if v is None and allow_null:
            out.append(None)
            continue
        try:
            f = float(v)
        except (TypeError, ValueError) as exc:
            raise InvalidInput(
                f"{what}: every component must be a number{' or null' if allow_null else ''}."
            ) from exc
        if not math.isfinite(f):
            raise InvalidInput(f"{what}: every component must be finite.")
        out.append(f)
    return tuple(out)


def structural_setup(model: TetModel, config: dict[str, Any], static: bool = True) -> StructuralSetup:
    """`static`: a static run needs supports and loads; vibration (free–free modal allowed) checks its own."""
    lab = FaceLabeller(model)
    setup = StructuralSetup(face_labels=lab.labels)
    for k, cond in enumerate(config.get("fixedSupports") or []):
        what = f"Fixed support {k + 1}"
        label = f"support_{len(setup.supports)}"
        rows = lab.claim(cond.get("faces") or [], label, what)
        setup.supports.append(Support(label, cond.get("name") or what, (0.0, 0.0, 0.0), rows))
    for k, cond in enumerate(config.get("displacementConditions") or []):
        what = f"Displacement condition {k + 1}"
        values = _vector(cond.get("displacement"), what, allow_null=True)
        if all(v is None for v in values):
            raise InvalidInput(f"{what} leaves every component free (null): give at least one displacement.")
        label = f"support_{len(setup.supports)}"
        rows = lab.claim(cond.get("faces") or [], label, what)
        setup.supports.append(Support(label, cond.get("name") or what, values, rows))
    for k, load in enumerate(config.get("forceLoads") or []):
        what = f"Force load {k + 1}"
        force = _vector(load.get("force"), what)
        label = f"force_{k}"
        lab.claim(load.get("faces") or [], label, what)
        setup.forces.append(ForceLoad(label, load.get("name") or what, force))
    for k, load in enumerate(config.get("pressureLoads") or []):
        what = f"Pressure load {k + 1}"
        try:
            pressure = float(load.get("pressure"))
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"{what}: pressure must be a number (Pa).") from exc
        label = f"pressure_{k}"
        lab.claim(load.get("faces") or [], label, what)
        setup.pressures.append(PressureLoad(label, load.get("name") or what, pressure))
    if config.get("gravity") is not None:
        setup.gravity = _vector(config.get("gravity"), "gravity")
    if static:
        require_supports_and_loads(setup)
    return setup


def require_supports_and_loads(setup: StructuralSetup) -> None:
    if not setup.supports:
        raise InvalidInput(
            "The model has no supports: add a fixed support or a displacement condition on some faces, "
            "or it can move freely as a rigid body."
        )
    if not (setup.forces or setup.pressures or any(setup.gravity) or _prescribes_motion(setup)):
        raise InvalidInput(
            "The model has no loads: add a force, a pressure, gravity or a non-zero displacement condition."
        )


def _prescribes_motion(setup: StructuralSetup) -> bool:
    return any(v not in (None, 0.0) for s in setup.supports for v in s.values)
