"""Curved geometry (`useCurvedGeometry` / `useCurvedMesh`).

A netgen mesh that still knows its OpenCascade geometry is curved exactly onto the CAD surfaces with
`mesh.Curve(order)`. A model uploaded as tetrahedra has no CAD geometry; see `curve_uploaded` for what
the engine does then.
"""

from typing import Any

import ngsolve as ng

from fieldline_engine.mesh.tet_model import TetModel


def curve_mesh(mesh: ng.Mesh, model: TetModel | None, config: dict[str, Any], order: int) -> dict[str, Any]:
    if not (config.get("useCurvedGeometry") or config.get("useCurvedMesh")):
        return {"curved": False}
    return {"curved": False, "reason": "not implemented yet"}
