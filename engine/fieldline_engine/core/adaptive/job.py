"""The adaptive loop as `solve` runs it: which surface new vertices go to, and what the results add about
the refined mesh (the uploaded face id and CAD face of each refined triangle)."""

from pathlib import Path
from typing import Any

import numpy as np

from fieldline_engine.core.adaptive.loop import run_adaptive
from fieldline_engine.core.adaptive.refine import SurfaceProjector
from fieldline_engine.core.adaptive.surface import ReconstructedSurface
from fieldline_engine.core.solution import Solution
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.protocol import ProgressSpan


def surface_for(model: TetModel, job: dict[str, Any], job_dir: Path | None) -> SurfaceProjector:
    """The CAD surfaces when the job carries the geometry the model was meshed from, else the surface
    reconstructed from the triangulation."""
    from fieldline_engine.core.adaptive.cad_surface import cad_surface_of_job

    cad = cad_surface_of_job(model, job, job_dir)
    return cad if cad is not None else ReconstructedSurface()


def adaptive_solve(
    analysis: Any,
    model: TetModel,
    config: dict[str, Any],
    job: dict[str, Any],
    job_dir: Path | None,
    progress: ProgressSpan,
) -> tuple[TetModel, Solution]:
    surface = surface_for(model, job, job_dir)
    if not isinstance(surface, ReconstructedSurface):
        model.true_surface = surface  # curved geometry follows the CAD on every pass
    outcome = run_adaptive(analysis, model, config, progress, surface)
    return outcome.model, outcome.solution


def refined_mesh_extras(model: TetModel, mesh_data: dict[str, Any]) -> dict[str, Any]:
    """For a refined model: `face_ids` (the uploaded face each triangle was cut from; conditions named by
    face id hold on all its pieces) and `face_patches` carried over from the uploaded faces."""
    if model.face_ids is None:
        return {}
    out: dict[str, Any] = {"face_ids": model.face_ids.astype(np.int64).tolist()}
    patches = mesh_data.get("face_patches")
    if isinstance(patches, list) and len(patches) >= int(model.face_ids.max()):
        out["face_patches"] = np.asarray(patches, dtype=np.int64)[model.face_ids - 1].tolist()
    return out
