"""New surface vertices on the CAD surfaces (models meshed from STEP in the engine). Filled in below."""

from typing import Any

from fieldline_engine.mesh.tet_model import TetModel


def cad_surface_of_job(model: TetModel, job: dict[str, Any]):
    return None
