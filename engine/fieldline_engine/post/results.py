"""The results file in the spec's shape (spec 001 §3)."""

from typing import Any

import numpy as np

from fieldline_engine.mesh.tet_model import TetModel


def dense_scalar(values: np.ndarray) -> dict[str, Any]:
    data = [float(x) for x in np.asarray(values, dtype=np.float64)]
    return {"format": "dense", "data": data, "size": len(data)}


def dense_vectors(values: np.ndarray) -> dict[str, Any]:
    """Index → vector, as the spec's efields/hfields ('data as index to vector')."""
    arr = np.asarray(values, dtype=np.float64)
    return {
        "format": "dense",
        "data": {str(i): [float(c) for c in row] for i, row in enumerate(arr)},
        "size": len(arr),
    }


def mesh_section(model: TetModel) -> dict[str, Any]:
    """Geometry in the model's own length unit, as uploaded."""
    return {
        "vertices": (model.vertices / model.unit_scale).tolist(),
        "faces": model.faces.tolist(),
        "tetrahedra": model.tetrahedra.tolist(),
        "tetrahedron_regions": model.regions.tolist(),
        "region_names": model.region_names,
    }
