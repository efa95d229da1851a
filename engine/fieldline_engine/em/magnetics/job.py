"""`analysisType: "magnetostatic"` on the uploaded model (docs/magnetics.md): air added when the device
touches the model's outside, coils, magnets and iron, the solve, and the named fields and quantities."""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine import protocol
from fieldline_engine.core.adaptive.settings import adaptive_requested
from fieldline_engine.core.fields import Field
from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.core.materials import material_table
from fieldline_engine.core.regions import FaceLabeller
from fieldline_engine.core.solution import Solution
from fieldline_engine.em.magnetics.adaptive_air import carried_air, model_with_air
from fieldline_engine.em.magnetics.air_region import add_air
from fieldline_engine.em.magnetics.run import MagnetostaticRun, run_magnetostatic
from fieldline_engine.em.magnetics.setup import (
    CoilSpec,
    body_magnetics,
    coil_specs,
    conduction_coils,
    force_bodies,
    label_boundaries,
    torque_axis,
)
from fieldline_engine.em.magnetics.solid_conductors import (
    SolidConductorSpec,
    read_solid_conductors,
    solid_conductor_air,
)
from fieldline_engine.em.magnetics.solver import BodyMagnetics
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.curving import curve_mesh
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.post.vertex_fields import VertexSampler
from fieldline_engine.protocol import ProgressSpan

AIR_PADDING_DEFAULT = 3.0  # contracts/src/analysis/magnetics.ts AIR_PADDING_DEFAULT

FIELDS = {
    "magnetic_flux_density": ("Magnetic flux density", "T"),
    "magnetic_field": ("Magnetic field", "A/m"),
    "current_density": ("Current density", "A/m^2"),
    "coil_direction": ("Coil current direction", ""),
}


def element_order(config: dict[str, Any]) -> int:
    order = int(config.get("meshOrder", 1))
    if order not in (1, 2, 3):
        raise InvalidInput("Element order must be 1, 2 or 3.")
    return order


def _active(body: BodyMagnetics, is_coil: bool) -> bool:
    return is_coil or body.remanence is not None or body.bh is not None or body.relative_permeability != 1.0


def needs_air(
    model: TetModel, config: dict[str, Any], bodies: list[BodyMagnetics], coil_bodies: set[int]
) -> bool:
    """Air is added when asked (airPadding > 0), or by default when a coil, magnet or magnetic body touches
    the model's outside: its field would otherwise be cut off at the device's own surface."""
    padding = config.get("airPadding")
    if padding is not None:
        return float(padding) > 0
    outer = model.face_outer_region == -1
    touching = set(np.unique(model.face_inner_region[outer]).tolist())
    return any(_active(bodies[i], i in coil_bodies) for i in touching)


def air_needed(
    model: TetModel,
    config: dict[str, Any],
    bodies: list[BodyMagnetics],
    coil_bodies: set[int],
    solids: list[SolidConductorSpec] | tuple = (),
) -> bool:
    """With solid conductors, only when asked and all are closed rings (solid_conductor_air)."""
    with_solids = solid_conductor_air(model, config, list(solids))
    if not (with_solids if with_solids is not None else needs_air(model, config, bodies, coil_bodies)):
        return False
    if config.get("magneticBoundaries"):
        raise InvalidInput(
            "A model with symmetry planes (magneticBoundaries) must hold its own air: air is added only "
            "around a whole device. Model the air, or set airPadding to 0."
        )
    return True


def air_padding(config: dict[str, Any]) -> float:
    return float(config.get("airPadding") or AIR_PADDING_DEFAULT)


def air_for_adaptive_passes(
    model: TetModel, config: dict[str, Any]
) -> tuple[TetModel, dict[str, Any]] | None:
    """The device with its air, meshed once before an adaptive run's passes (em/magnetics/adaptive_air.py)."""
    labeller = FaceLabeller(model)
    coils = coil_specs(model, config, labeller)
    solids = read_solid_conductors(model, config)
    if not air_needed(model, config, body_magnetics(model, config), {c.body for c in coils}, solids):
        return None
    return model_with_air(model, config, air_padding(config))


def solve_magnetostatic_job(model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
    order = element_order(config)
    labeller = FaceLabeller(model)
    label_boundaries(config, labeller)
    coils = coil_specs(model, config, labeller)
    solids = read_solid_conductors(model, config)
    sigma = material_table(model, config, {"conductivity": 0.0}).column("conductivity")
    for spec in solids:
        if not sigma[spec.body] > 0:
            raise InvalidInput(
                f"Solid conductor '{spec.name}' has no conductivity: give its body one above 0 (bodyMaterials)."
            )
    solid_coils = conduction_coils(solids, coils, labeller)
    coils = coils + solid_coils
    bodies = body_magnetics(model, config)
    forces = force_bodies(model, config)
    origin, axis = torque_axis(config, model.unit_scale)
    solved_model, labels = model, labeller.labels
    air_info = carried_air(model, config)  # an adaptive pass: the air is part of the refined model
    if air_info is None and air_needed(model, config, bodies, {c.body for c in coils}, solids):
        progress(0.02, "Meshing the air around the model")
        air = add_air(model, labels, air_padding(config))
        solved_model, labels, air_info = air.model, air.labels, air.describe()
        bodies.append(BodyMagnetics())
    progress(0.06, "Building mesh")
    mesh = build_ngsolve_mesh(solved_model, labels)
    curving = curve_mesh(mesh, solved_model, config, order)
    run = run_magnetostatic(
        mesh,
        bodies,
        coils,
        order,
        SolverOptions.from_config(config),
        forces,
        list(solved_model.region_names),
        origin,
        axis,
        lambda f, m: progress(0.1 + 0.75 * f, m),
    )
    protocol.progress(88, "Sampling fields")
    # Each field evaluated at every element's vertices and averaged over the elements around a vertex (the
    # average a per-element projection gives, without one; 57 k unknowns: ~4 s → ~0.3 s for the four fields).
    # All of them in one compiled evaluation (one pass over the points instead of one per field).
    fields = run.fields
    vectors = {
        "magnetic_flux_density": fields.b,
        "magnetic_field": fields.h,
        "current_density": fields.source,
    }
    if run.paths:
        vectors["coil_direction"] = sum((p.direction for p in run.paths[1:]), run.paths[0].direction)
    together = VertexSampler(mesh)(ng.CF(tuple(vectors.values())))[: model.nv]
    sampled = {name: np.ascontiguousarray(together[:, 3 * k : 3 * k + 3]) for k, name in enumerate(vectors)}
    solution = Solution()
    for name, values in sampled.items():
        label, unit = FIELDS[name]
        solution.add_field(Field(name, label, unit, "vector", values))
    solution.quantities.update(run.quantities)
    if solid_coils:
        solution.quantities.update(dc_resistances(run, solid_coils, sigma, list(model.region_names)))
    solution.solver_info.update(run.solver_info)
    solution.solver_info["curved_geometry"] = curving
    if air_info is not None:
        solution.solver_info["air_region"] = air_info
    solution.warnings.extend(run.warnings)
    if adaptive_requested(config):
        from fieldline_engine.em.adaptive_estimates import magnetostatic_estimate

        air_region = None if air_info is None else len(model.region_names) - (solved_model is model)
        estimate, air_share = magnetostatic_estimate(
            model, solved_model, mesh, fields, bodies, order, air_region
        )
        solution.error_estimate = estimate
        if air_info is not None:
            solution.solver_info["air_region"]["estimated_error_share"] = air_share
    return solution


def dc_resistances(
    run: MagnetostaticRun, solid_coils: list[CoilSpec], sigma: list[float], body_names: list[str]
) -> dict[str, Any]:
    """Each solid conductor's DC resistance and its ohmic loss I²R, by conductor and by body (the
    eddy-current run's names; here DC, not a time average). R = 1/(σ ∫|t|² dV), t the harmonic field of one
    volt across it (round the ring), whose conduction energy is more accurate than that of the piecewise-
    constant source it drives the field with."""
    first = len(run.paths) - len(solid_coils)
    resistance, loss = {}, {}
    for spec, path in zip(solid_coils, run.paths[first:], strict=True):
        r = 1.0 / (sigma[spec.body] * path.unit_rise_energy)
        resistance[spec.name] = r
        loss[body_names[spec.body]] = r * spec.current**2
    return {"resistance_ohm": resistance, "loss_W": loss, "total_loss_W": float(sum(loss.values()))}
