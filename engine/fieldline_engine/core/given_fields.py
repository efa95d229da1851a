"""Fields a run is given rather than computes: another job's `temperature` or `stress` (chained runs,
`fieldsFrom`), or an earlier step's inside a coupled job (thermal-structural). A family reads them by name
(`given_field(config, "temperature")`); where they came from goes into `solver_info.fields_from`.

They travel inside the config under a private key (never written to results: `commands/solve.py` records
only the public keys), so the analysis interface stays `solve(model, config, progress)` and one family hands
another a field without importing it (docs/multiphysics.md §4).
"""

from dataclasses import dataclass, field
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.fields import COMPONENTS, Field
from fieldline_engine.errors import InvalidInput

GIVEN_FIELDS_KEY = "_givenFields"


@dataclass
class GivenField:
    field: Field
    # Where it came from, as solver_info.fields_from records it: {"job_id", "frame", "time", …} or
    # {"step": "thermal"} for a coupled job's own earlier step.
    source: dict[str, Any] = field(default_factory=dict)


def given_fields(config: dict[str, Any]) -> dict[str, GivenField]:
    return config.get(GIVEN_FIELDS_KEY) or {}


def given_field(config: dict[str, Any], name: str) -> GivenField | None:
    return given_fields(config).get(name)


def with_given(config: dict[str, Any], fields: dict[str, GivenField]) -> dict[str, Any]:
    """A copy of the config that also carries `fields` (added to any it already had)."""
    return {**config, GIVEN_FIELDS_KEY: {**given_fields(config), **fields}}


def fields_from_info(config: dict[str, Any]) -> dict[str, Any]:
    """solver_info.fields_from: each given field's source."""
    return {name: dict(g.source) for name, g in given_fields(config).items()}


def parse_given(payload: dict[str, Any]) -> dict[str, GivenField]:
    """The worker's `fields_from.json` ({"source": {...}, "fields": {name: {kind, unit, location, data}}})."""
    source = payload.get("source") or {}
    out: dict[str, GivenField] = {}
    for name, entry in (payload.get("fields") or {}).items():
        kind = entry.get("kind", "scalar")
        if kind not in COMPONENTS:
            raise InvalidInput(f"fieldsFrom: field '{name}' has an unknown kind '{kind}'.")
        values = np.asarray(entry.get("data"), dtype=np.float64)
        f = Field(
            name,
            entry.get("label") or name,
            entry.get("unit", ""),
            kind,
            values,
            entry.get("location", "vertex"),
        )
        out[name] = GivenField(f, {**source, "field": name})
    return out


def vertex_values(given: GivenField, nv: int, what: str) -> np.ndarray:
    """The field's vertex values, checked against this model (the server checked the mesh hash; this guards
    the engine against a field of the wrong size all the same)."""
    f = given.field
    if f.location != "vertex" or f.size != nv:
        raise InvalidInput(
            f"{what}: the given '{f.name}' field has {f.size} {f.location} values; this model has {nv} vertices."
        )
    if not np.all(np.isfinite(f.values)):
        raise InvalidInput(f"{what}: the given '{f.name}' field holds values that are not finite.")
    return f.values


def vertex_cf(mesh: ng.Mesh, values: np.ndarray) -> ng.CoefficientFunction:
    """Vertex values (one per mesh vertex, or (nv, k)) as their piecewise-linear interpolant: first-order H1
    numbers its DOFs as the mesh's vertices."""
    values = np.asarray(values, dtype=np.float64)
    width = 1 if values.ndim == 1 else values.shape[1]
    space = ng.H1(mesh, order=1, dim=width) if width > 1 else ng.H1(mesh, order=1)
    gf = ng.GridFunction(space)
    gf.vec.FV().NumPy()[:] = values.ravel()  # dim=k: node-major, k entries per vertex
    return gf
