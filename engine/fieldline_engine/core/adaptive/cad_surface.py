"""New surface vertices on the CAD surfaces, for models meshed in the engine from STEP: the solve job then
carries the STEP file (`source`, as a meshing job does) and the CAD face of every surface triangle
(`mesh_data.face_patches`, gmsh's surface tags from meshing). The STEP is loaded again the way the mesher
loaded it, so the tags name the same faces, and each new vertex is projected onto the face its parent
triangle lies on (gmsh's closest point on the OpenCascade surface): a refined cylinder stays a cylinder
to machine precision, not to the chord of its first mesh."""

from pathlib import Path
from typing import Any

import numpy as np

from fieldline_engine.core.adaptive.surface import ReconstructedSurface
from fieldline_engine.mesh.tet_model import TetModel


class CadSurface:
    def __init__(self, step_files: list[Path], unit: str, face_patches: np.ndarray):
        self.step_files, self.unit, self.face_patches = step_files, unit, face_patches
        self.fallback = ReconstructedSurface()  # interfaces between bodies carry no face id

    def project(
        self, model: TetModel, triangles: np.ndarray, rows: np.ndarray, points: np.ndarray
    ) -> np.ndarray:
        from fieldline_engine.geometry.gmsh_mesher import _fragment, gmsh_session, load_step

        out = self.fallback.project(model, triangles, rows, points)
        listed = rows >= 0
        if not listed.any():
            return out
        ids = model.face_ids[rows[listed]] if model.face_ids is not None else rows[listed] + 1
        tags = self.face_patches[ids - 1]
        flat = points[listed] / model.unit_scale  # the CAD is in the model's unit
        projected = np.empty_like(flat)
        with gmsh_session() as gmsh:
            _fragment(load_step(self.step_files, self.unit))
            for tag in np.unique(tags).tolist():
                sel = tags == tag
                closest, _ = gmsh.model.getClosestPoint(2, int(tag), flat[sel].ravel().tolist())
                projected[sel] = np.asarray(closest, dtype=float).reshape(-1, 3)
        out[listed] = projected * model.unit_scale
        return out


def cad_surface_of_job(model: TetModel, job: dict[str, Any], job_dir: Path | None) -> CadSurface | None:
    source = job.get("source")
    patches = (job.get("mesh_data") or {}).get("face_patches")
    if not source or job_dir is None or not isinstance(patches, list) or len(patches) != model.face_id_count:
        return None
    from fieldline_engine.geometry.archive import ZipLimits
    from fieldline_engine.geometry.sources import input_files, load_inputs

    work = job_dir / "work"
    work.mkdir(exist_ok=True)
    loaded = load_inputs(
        input_files(job_dir, source.get("inputs") or []),
        source.get("units"),
        work,
        ZipLimits.from_job((job.get("limits") or {}).get("zip")),
    )
    if not loaded.is_cad:
        return None
    return CadSurface(loaded.step_files, loaded.units, np.asarray(patches, dtype=np.int64))
