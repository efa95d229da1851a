"""The magnetostatic problem from the analysis config (docs/magnetics.md): per-body magnetic materials,
coils and their paths, flux-tangent and flux-normal faces, force bodies."""

from dataclasses import dataclass
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.numbers import finite_number
from fieldline_engine.core.regions import FaceLabeller, region_index
from fieldline_engine.em.magnetics.bh_curve import BhCurve, checked_table
from fieldline_engine.em.magnetics.coil_paths import CoilPath, closed_path, open_path, wrapping_path
from fieldline_engine.em.magnetics.quantities import CoilDrive
from fieldline_engine.em.magnetics.solid_conductors import RING_ADVICE, SolidConductorSpec
from fieldline_engine.em.magnetics.solver import BodyMagnetics
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel

FLUX_NORMAL_LABEL = "flux_normal"
FLUX_TANGENT_LABEL = "flux_tangent"


@dataclass
class CoilSpec:
    name: str
    body: int
    turns: float
    current: float
    axis: np.ndarray | None
    wraps: int | None
    terminals: tuple[str, str] | None  # boundary labels of the in and out faces
    # a solid conductor at DC: one turn whose current follows the conduction solution (coil_paths.py)
    conduction: bool = False

    @property
    def drive(self) -> CoilDrive:
        return CoilDrive(self.name, self.turns, self.current, self.body)

    def path(self, mesh: ng.Mesh, order: int) -> CoilPath:
        if self.conduction:
            what = f"Solid conductor '{self.name}'"
            if self.terminals is not None:
                return open_path(mesh, self.body, *self.terminals, what, order, conduction=True)
            return closed_path(mesh, self.body, self.axis, what, order, conduction=True, advice=RING_ADVICE)
        what = f"Coil '{self.name}'"
        if self.terminals is not None:
            return open_path(mesh, self.body, *self.terminals, what, order)
        if self.wraps is not None:
            return wrapping_path(mesh, self.body, self.wraps, self.axis, what, order)
        return closed_path(mesh, self.body, self.axis, what, order)


def _vector(value: Any, what: str) -> tuple[float, float, float]:
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise InvalidInput(f"{what} must be a vector [x, y, z].")
    return tuple(finite_number(v, what) for v in value)  # type: ignore[return-value]


def body_magnetics(
    model: TetModel, config: dict[str, Any], nbodies: int | None = None
) -> list[BodyMagnetics]:
    """Each body's μr (the recoil permeability of a magnet), B–H curve and remanence from `bodyMaterials`;
    bodies without an entry (and the added air) are μr = 1."""
    bodies = [BodyMagnetics() for _ in range(nbodies or len(model.region_names))]
    for entry in config.get("bodyMaterials") or []:
        i = region_index(model, entry.get("region"), "Body material")
        what = f"Body material '{entry.get('region')}'"
        mu_r = finite_number(entry.get("relativePermeability", 1.0), f"{what}: relativePermeability")
        if not mu_r > 0:
            raise InvalidInput(f"{what}: relativePermeability must be positive (got {mu_r:g}).")
        body = BodyMagnetics(relative_permeability=mu_r)
        if entry.get("bhCurve") is not None:
            body.bh = BhCurve(checked_table(entry["bhCurve"], what))
        if entry.get("remanence") is not None:
            body.remanence = _vector(entry["remanence"], f"{what}: remanence")
        elif entry.get("remanentFluxDensity"):
            br = finite_number(entry["remanentFluxDensity"], f"{what}: remanentFluxDensity")
            direction = np.asarray(
                _vector(entry.get("magnetDirection"), f"{what}: magnetDirection"), dtype=float
            )
            if not np.linalg.norm(direction) > 0:
                raise InvalidInput(f"{what}: magnetDirection must not be [0, 0, 0].")
            body.remanence = tuple(float(x) for x in br * direction / np.linalg.norm(direction))
        if body.bh is not None and body.remanence is not None:
            raise InvalidInput(
                f"{what}: a body is either a magnet (remanence) or soft iron (bhCurve), not both."
            )
        bodies[i] = body
    return bodies


def coil_specs(model: TetModel, config: dict[str, Any], labeller: FaceLabeller) -> list[CoilSpec]:
    specs: list[CoilSpec] = []
    names: set[str] = set()
    for k, entry in enumerate(config.get("coils") or []):
        name = str(entry.get("name") or f"coil {k + 1}")
        what = f"Coil '{name}'"
        if name in names:
            raise InvalidInput(f"{what}: the name is used by another coil.")
        names.add(name)
        body = region_index(model, entry.get("region"), what)
        turns = finite_number(entry.get("turns", 1), f"{what}: turns")
        if not turns > 0:
            raise InvalidInput(f"{what}: turns must be positive (got {turns:g}).")
        current = finite_number(entry.get("current", 0.0), f"{what}: current")
        axis = None
        if entry.get("axis") is not None:
            axis = np.asarray(_vector(entry["axis"], f"{what}: axis"), dtype=float)
        wraps = None
        if entry.get("wraps") is not None:
            wraps = region_index(model, entry["wraps"], f"{what}: wraps")
            if wraps == body:
                raise InvalidInput(f"{what}: a winding cannot wrap its own body.")
        terminals = None
        if entry.get("terminals") is not None:
            if wraps is not None:
                raise InvalidInput(f"{what}: give terminals (an open winding) or wraps, not both.")
            t = entry["terminals"]
            labels = (f"coil_in_{k}", f"coil_out_{k}")
            labeller.claim(list(t.get("in") or []), labels[0], f"{what} terminal 'in'")
            labeller.claim(list(t.get("out") or []), labels[1], f"{what} terminal 'out'")
            terminals = labels
        specs.append(CoilSpec(name, body, turns, current, axis, wraps, terminals))
    return specs


def conduction_coils(
    specs: list[SolidConductorSpec], coils: list[CoilSpec], labeller: FaceLabeller
) -> list[CoilSpec]:
    """Solid conductors at DC (magnetostatics): one turn carrying the given current, spread as the
    conduction solution spreads it (no skin effect at DC). Open ones claim their terminal faces."""
    taken = {c.name for c in coils}
    bodies = {c.body for c in coils}
    out = []
    for k, spec in enumerate(specs):
        what = f"Solid conductor '{spec.name}'"
        if spec.name in taken:
            raise InvalidInput(f"{what}: the name is used by a coil or another solid conductor.")
        if spec.body in bodies:
            raise InvalidInput(f"{what}: its body is a coil's winding.")
        taken.add(spec.name)
        terminals = None
        if not spec.closed:
            terminals = (f"solid_in_{k}", f"solid_out_{k}")
            labeller.assign(spec.terminal_in, terminals[0], f"{what} terminal 'in'")
            labeller.assign(spec.terminal_out, terminals[1], f"{what} terminal 'out'")
        out.append(CoilSpec(spec.name, spec.body, 1.0, spec.dc_current, spec.axis, None, terminals, True))
    return out


def label_boundaries(config: dict[str, Any], labeller: FaceLabeller) -> None:
    for k, entry in enumerate(config.get("magneticBoundaries") or []):
        kind = entry.get("type")
        if kind not in ("flux-tangent", "flux-normal"):
            raise InvalidInput(f"magneticBoundaries[{k}]: type must be 'flux-tangent' or 'flux-normal'.")
        label = FLUX_NORMAL_LABEL if kind == "flux-normal" else FLUX_TANGENT_LABEL
        labeller.claim(list(entry.get("faces") or []), label, f"magneticBoundaries[{k}] ({kind})")


def flux_tangent_region(mesh: ng.Mesh) -> ng.Region:
    """Where n×A = 0 (B·n = 0): the outer faces not named flux-normal, and faces named flux-tangent."""
    ngmesh = mesh.ngmesh
    names = mesh.GetBoundaries()
    mask = ng.BitArray(len(names))
    mask.Clear()
    for i, name in enumerate(names):
        fd = ngmesh.FaceDescriptor(i + 1)
        outer = fd.domin == 0 or fd.domout == 0
        if (outer and name != FLUX_NORMAL_LABEL) or name == FLUX_TANGENT_LABEL:
            mask.Set(i)
    return ng.Region(mesh, ng.BND, mask)


def force_bodies(model: TetModel, config: dict[str, Any]) -> list[int]:
    return [region_index(model, ref, "forceBodies") for ref in config.get("forceBodies") or []]


def torque_axis(config: dict[str, Any], unit_scale: float) -> tuple[np.ndarray, np.ndarray | None]:
    entry = config.get("torqueAxis")
    if not entry:
        return np.zeros(3), None
    origin = (
        np.asarray(_vector(entry.get("origin", [0, 0, 0]), "torqueAxis.origin"), dtype=float) * unit_scale
    )
    direction = np.asarray(_vector(entry.get("direction"), "torqueAxis.direction"), dtype=float)
    if not np.linalg.norm(direction) > 0:
        raise InvalidInput("torqueAxis.direction must not be [0, 0, 0].")
    return origin, direction
