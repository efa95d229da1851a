"""Adaptive refinement with the air a magnetic run adds around a bare device (docs/adaptive.md, issue 40).

Before the first pass the device and its air are meshed once (air_region.py) and the passes refine that
combined model: the estimator marks air elements like any other, Netgen's bisection refines them, and the
existing face inheritance carries the device's outside faces (now between the device and the air) and the
air's outer sphere (flux-tangent, the default label) to their pieces. Each pass's solve finds the air
already there through the private config key `_addedAir` and does not add it again. The results then show
the device alone, as a run without refinement does: its refined tetrahedra, its vertices' fields and its
faces; `solver_info.air_region` describes the refined air.

The sphere's faces carry face id 0 (`TetModel.face_ids`): they are no uploaded face, so no condition can
name them and no CAD face is looked up for them (their new vertices stay on the sphere's flat facets).
"""

from typing import Any

import numpy as np

from fieldline_engine.core.fields import Field, FieldSet
from fieldline_engine.core.regions import FaceLabeller
from fieldline_engine.core.solution import Solution
from fieldline_engine.em.magnetics.air_region import AIR_REGION_NAME, add_air
from fieldline_engine.mesh.tet_model import TetModel

ADDED_AIR_KEY = "_addedAir"


def model_with_air(
    model: TetModel, config: dict[str, Any], padding: float
) -> tuple[TetModel, dict[str, Any]]:
    """The device with its air, meshed once for all passes, and the config that tells each pass so."""
    air = add_air(model, FaceLabeller(model).labels, padding)
    merged = air.model
    device_ids = model.face_ids if model.face_ids is not None else np.arange(1, len(model.faces) + 1)
    merged.face_ids = np.concatenate([device_ids, np.zeros(len(merged.faces) - len(model.faces), np.int64)])
    merged.true_surface = model.true_surface
    carried = {
        "region": len(model.region_names),
        "centre_m": [float(x) for x in air.centre],
        "radius_m": air.radius,
    }
    return merged, {**config, ADDED_AIR_KEY: carried}


def carried_air(model: TetModel, config: dict[str, Any]) -> dict[str, Any] | None:
    """`solver_info.air_region` for a model that already holds the added air (an adaptive pass), else None."""
    air = config.get(ADDED_AIR_KEY)
    if air is None:
        return None
    in_air = model.regions == air["region"]
    device_vertices = np.unique(model.tetrahedra[~in_air]).size
    return {
        "added": True,
        "centre_m": air["centre_m"],
        "radius_m": air["radius_m"],
        "added_vertices": model.nv - device_vertices,
        "added_tetrahedra": int(in_air.sum()),
        "fields_returned": "model vertices only",
        "refined": True,
    }


def device_results(model: TetModel, solution: Solution, config: dict[str, Any]) -> tuple[TetModel, Solution]:
    """The final refined device and its fields, without the added air (what a run without refinement shows)."""
    air = config.get(ADDED_AIR_KEY)
    if air is None:
        return model, solution
    region = int(air["region"])
    device = model.regions != region
    keep = np.unique(model.tetrahedra[device])
    index = np.full(model.nv, -1, dtype=np.int64)
    index[keep] = np.arange(len(keep))

    inner, outer = model.face_inner_region, model.face_outer_region
    faces = model.faces.copy()
    flip = (inner == region) & (outer >= 0) & (outer != region)  # a device face listed from the air's side
    faces[flip] = faces[flip][:, [0, 2, 1]]
    inner = np.where(flip, outer, inner)
    outer = np.where(flip, region, outer)
    on_device = inner != region
    outer = np.where(outer == region, -1, outer)

    interface_faces, interface_regions = model.interface_faces, model.interface_regions
    if interface_faces is not None and interface_regions is not None:
        between_bodies = np.all(interface_regions != region, axis=1)
        interface_faces = index[interface_faces[between_bodies]]
        interface_regions = interface_regions[between_bodies]
    shown = TetModel(
        vertices=model.vertices[keep],
        tetrahedra=index[model.tetrahedra[device]],
        regions=model.regions[device],
        region_names=[n for i, n in enumerate(model.region_names) if i != region],
        faces=index[faces[on_device]],
        face_inner_region=inner[on_device],
        face_outer_region=outer[on_device],
        unit_scale=model.unit_scale,
        interface_faces=interface_faces,
        interface_regions=interface_regions,
        face_ids=model.face_ids[on_device] if model.face_ids is not None else None,
        true_surface=model.true_surface,
    )
    fields = FieldSet()
    for f in solution.fields:
        values = f.values[keep] if f.location == "vertex" else f.values[device]
        fields.add(Field(f.name, f.label, f.unit, f.kind, values, f.location, f.role))
    solution.fields = fields
    assert region == len(shown.region_names) and model.region_names[region] == AIR_REGION_NAME
    return shown, solution
