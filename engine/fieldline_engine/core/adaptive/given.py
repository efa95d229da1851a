"""Fields a run is given (core/given_fields.py: another job's temperature, a coupled step's field) follow
the refinement: a vertex field takes, at each new vertex, the mean of the two vertices whose edge it
bisected (exact for the piecewise-linear field it was sampled as)."""

from typing import Any

import numpy as np

from fieldline_engine.core.fields import Field
from fieldline_engine.core.given_fields import GivenField, given_fields, with_given
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel


def carried_given_fields(config: dict[str, Any], model: TetModel) -> dict[str, Any]:
    fields = given_fields(config)
    parents = model.vertex_parents
    if not fields or parents is None:
        return config
    carried: dict[str, GivenField] = {}
    for name, given in fields.items():
        f = given.field
        if f.location != "vertex":
            raise InvalidInput(
                f"Adaptive refinement cannot carry the given '{name}' cell field onto the refined mesh; "
                "run this analysis without adaptiveRefinement."
            )
        old = np.asarray(f.values)
        values = np.empty((model.nv, *old.shape[1:]), dtype=old.dtype)
        values[: len(old)] = old
        for v in range(len(old), model.nv):
            a, b = parents[v]
            values[v] = 0.5 * (values[a] + values[b])
        carried[name] = GivenField(
            Field(f.name, f.label, f.unit, f.kind, values, f.location, f.role), given.source
        )
    return with_given(config, carried)
