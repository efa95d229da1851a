"""The elasticity keys of the config (docs/structural.md; vibration reads the same ones), checked and resolved
onto the model's faces.

`fixedSupports: [{faces}]` fixes every displacement component; `displacementConditions: [{faces,
displacement: [ux|null, uy|null, uz|null]}]` prescribes the given components (null = free, so a symmetry
plane is 0 on its normal component); either support may hold `edges` (mesh edges as pairs of vertex
indices, a line such as a plate's mid-line) or `points` (vertex indices) instead of `faces`; `forceLoads: [{faces, force: [Fx, Fy, Fz]}]` is a total force in N
spread over the faces by area; `pressureLoads: [{faces, pressure}]` pushes into the body for positive
values (Pa); `gravity: [gx, gy, gz]` (m/s²) loads every body by its density. Face ids are 1-based
surface-triangle ids; a face carries at most one condition (core/regions.py refuses overlaps, naming the
face).
"""

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fieldline_engine.core.elasticity.thermal import ThermalLoad, thermal_load
from fieldline_engine.core.materials import MaterialTable, material_table
from fieldline_engine.core.numbers import finite_number
from fieldline_engine.core.regions import FaceLabeller
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel

DEFAULT_YOUNGS_MODULUS = 200e9  # Pa, structural steel
DEFAULT_POISSON_RATIO = 0.3
DEFAULT_DENSITY = 1000.0  # the spec's density default (spec 001 §9)
DEFAULT_THERMAL_EXPANSION = 12e-6  # 1/K, structural steel (as the default Young's modulus)


@dataclass
class Support:
    label: str
    name: str
    # per axis: the prescribed displacement (m), or None where the component is free
    values: tuple[float | None, float | None, float | None]
    rows: np.ndarray  # face rows (0-based) it covers (empty for an edge or point support)
    edges: np.ndarray | None = None  # (k, 2) vertex pairs of an edge support
    points: np.ndarray | None = None  # vertex indices of a point support

    @property
    def codim(self) -> int:
        """1 on faces, 2 on edges, 3 at points: the NGSolve region kind (BND, BBND, BBBND)."""
        return 2 if self.edges is not None else 3 if self.points is not None else 1

    def vertices(self, faces: np.ndarray) -> np.ndarray:
        if self.edges is not None:
            return np.unique(self.edges)
        if self.points is not None:
            return self.points
        return np.unique(faces[self.rows])


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
class ElasticSetup:
    face_labels: np.ndarray
    supports: list[Support] = field(default_factory=list)
    forces: list[ForceLoad] = field(default_factory=list)
    pressures: list[PressureLoad] = field(default_factory=list)
    gravity: tuple[float, float, float] = (0.0, 0.0, 0.0)
    thermal: ThermalLoad | None = None  # temperatureLoad, or a given temperature field

    def edge_regions(self) -> dict[str, np.ndarray]:
        return {s.label: s.edges for s in self.supports if s.edges is not None}

    def point_regions(self) -> dict[str, np.ndarray]:
        return {s.label: s.points for s in self.supports if s.points is not None}


def elasticity_order(config: dict[str, Any]) -> int:
    """The displacement elements' order (`meshOrder`, default 2: first-order tetrahedra lock in bending)."""
    order = int(config.get("meshOrder", 2))
    if order not in (1, 2, 3):
        raise InvalidInput("Element order must be 1, 2 or 3.")
    return order


def elastic_materials(model: TetModel, config: dict[str, Any]) -> MaterialTable:
    table = material_table(
        model,
        config,
        {
            "youngsModulus": _number(config, "youngsModulus", DEFAULT_YOUNGS_MODULUS),
            "poissonRatio": _number(config, "poissonRatio", DEFAULT_POISSON_RATIO),
            "density": _number(config, "density", DEFAULT_DENSITY),
            "yieldStrength": _number(config, "yieldStrength", math.nan),
            "thermalExpansion": _number(config, "thermalExpansion", DEFAULT_THERMAL_EXPANSION),
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
    return default if value is None else finite_number(value, key)


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


def elastic_setup(model: TetModel, config: dict[str, Any]) -> ElasticSetup:
    """Supports, loads and gravity as given; what a run needs of them (a static run: supports and loads,
    `require_supports_and_loads`; modal: nothing, free–free is allowed) its family checks."""
    lab = FaceLabeller(model)
    setup = ElasticSetup(face_labels=lab.labels)
    surface = SurfaceEdges(model)
    for k, cond in enumerate(config.get("fixedSupports") or []):
        what = f"Fixed support {k + 1}"
        field_name = f"fixedSupports[{k}]"
        setup.supports.append(_support(cond, (0.0, 0.0, 0.0), what, field_name, lab, surface, setup))
    for k, cond in enumerate(config.get("displacementConditions") or []):
        what = f"Displacement condition {k + 1}"
        values = _vector(cond.get("displacement"), what, allow_null=True)
        if all(v is None for v in values):
            raise InvalidInput(f"{what} leaves every component free (null): give at least one displacement.")
        field_name = f"displacementConditions[{k}]"
        setup.supports.append(_support(cond, values, what, field_name, lab, surface, setup))
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
    setup.thermal = thermal_load(model, config)
    return setup


class SurfaceEdges:
    """The edges of the surface triangulation, to check an edge support lies on the model's surface."""

    def __init__(self, model: TetModel):
        self.nv = model.nv
        tris = model.faces
        pairs = np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]])
        self.keys = np.unique(self._keys(pairs))

    def _keys(self, pairs: np.ndarray) -> np.ndarray:
        pairs = np.sort(pairs, axis=1).astype(np.int64)
        return pairs[:, 0] * self.nv + pairs[:, 1]

    def missing(self, pairs: np.ndarray) -> np.ndarray:
        """Rows of `pairs` that are not edges of the surface mesh."""
        return np.nonzero(~np.isin(self._keys(pairs), self.keys))[0]


def _support(
    cond: dict[str, Any],
    values: tuple,
    what: str,
    field_name: str,
    lab: FaceLabeller,
    surface: SurfaceEdges,
    setup: ElasticSetup,
) -> Support:
    """A support on exactly one of `faces`, `edges` (vertex pairs) or `points` (vertex indices)."""
    label = f"support_{len(setup.supports)}"
    name = cond.get("name") or what
    given = [key for key in ("faces", "edges", "points") if cond.get(key)]
    if len(given) > 1:
        raise InvalidInput(
            f"{field_name}: give one of faces, edges or points, not {' and '.join(given)} (one condition each)."
        )
    if given == ["edges"]:
        edges = _index_array(cond["edges"], f"{field_name}.edges", surface.nv, pairs=True)
        off = surface.missing(edges)
        if off.size:
            a, b = (int(x) for x in edges[off[0]])
            raise InvalidInput(
                f"{field_name}.edges: [{a}, {b}] is not an edge of the surface mesh (vertices {a} and {b} share "
                "no surface triangle); an edge is two vertex indices joined by a side of a surface triangle."
            )
        return Support(label, name, values, np.zeros(0, dtype=np.int64), edges=edges)
    if given == ["points"]:
        points = np.unique(_index_array(cond["points"], f"{field_name}.points", surface.nv, pairs=False))
        return Support(label, name, values, np.zeros(0, dtype=np.int64), points=points)
    return Support(label, name, values, lab.claim(cond.get("faces") or [], label, what))


def _index_array(value: Any, field_name: str, nv: int, pairs: bool) -> np.ndarray:
    """Vertex indices (0-based, as `faces` and `tetrahedra` hold them): a list, or a list of pairs."""
    shape = "a list of [vertex, vertex] pairs" if pairs else "a list of vertex indices"
    try:
        out = np.asarray(value)
        ok = out.dtype.kind in "iu" and out.ndim == (2 if pairs else 1) and (not pairs or out.shape[1] == 2)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise InvalidInput(f"{field_name} must be {shape} (0-based vertex indices).")
    out = out.astype(np.int64)
    bad = out[(out < 0) | (out >= nv)]
    if bad.size:
        raise InvalidInput(
            f"{field_name}: vertex {int(bad[0])} is out of range; the model has {nv} vertices (0–{nv - 1})."
        )
    if pairs and np.any(out[:, 0] == out[:, 1]):
        raise InvalidInput(f"{field_name}: an edge joins two different vertices.")
    return out


def require_supports_and_loads(setup: ElasticSetup) -> None:
    if not setup.supports:
        raise InvalidInput(
            "The model has no supports: add a fixed support or a displacement condition on some faces, edges "
            "or points, or it can move freely as a rigid body."
        )
    if not has_loads(setup):
        raise InvalidInput(
            "The model has no loads: add a force, a pressure, gravity, a thermal load or a non-zero "
            "displacement condition."
        )


def has_loads(setup: ElasticSetup) -> bool:
    """Whether anything loads the model: a thermal load counts (uniform, coupled or chained)."""
    return bool(
        setup.forces
        or setup.pressures
        or any(setup.gravity)
        or setup.thermal is not None
        or _prescribes_motion(setup)
    )


def _prescribes_motion(setup: ElasticSetup) -> bool:
    return any(v not in (None, 0.0) for s in setup.supports for v in s.values)
