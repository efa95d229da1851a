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
        self,
        model: TetModel,
        triangles: np.ndarray,
        rows: np.ndarray,
        points: np.ndarray,
        other_rows: np.ndarray | None = None,
    ) -> np.ndarray:
        from fieldline_engine.geometry.gmsh_mesher import _fragment, gmsh_session, load_step

        out = self.fallback.project(model, triangles, rows, points)
        listed = self._on_cad(model, rows)
        if not listed.any():
            return out
        tags = self._tags(model, rows[listed])
        others = np.full(len(tags), -1, dtype=np.int64)
        if other_rows is not None:
            second = other_rows[listed]
            on_cad = self._on_cad(model, second)
            others[on_cad] = self._tags(model, second[on_cad])
        flat = points[listed] / model.unit_scale  # the CAD is in the model's unit
        projected = np.empty_like(flat)
        with gmsh_session() as gmsh:
            _fragment(load_step(self.step_files, self.unit))
            on_edge = (others >= 0) & (others != tags)
            for tag in np.unique(tags).tolist():
                sel = (tags == tag) & ~on_edge
                if sel.any():
                    closest, _ = gmsh.model.getClosestPoint(2, int(tag), flat[sel].ravel().tolist())
                    projected[sel] = np.asarray(closest, dtype=float).reshape(-1, 3)
            for a, b in {(int(x), int(y)) for x, y in zip(tags[on_edge], others[on_edge], strict=True)}:
                sel = on_edge & (tags == a) & (others == b)
                projected[sel] = _onto_common_edge(gmsh, a, b, flat[sel])
        out[listed] = projected * model.unit_scale
        return out

    @staticmethod
    def _on_cad(model: TetModel, rows: np.ndarray) -> np.ndarray:
        """Rows of uploaded faces: not −1 (an unlisted interface) nor face id 0 (a face the engine added,
        such as the air a magnetic run meshes around a bare device: em/magnetics/adaptive_air.py)."""
        listed = rows >= 0
        if model.face_ids is not None:
            listed[listed] = model.face_ids[rows[listed]] > 0
        return listed

    def _tags(self, model: TetModel, rows: np.ndarray) -> np.ndarray:
        ids = model.face_ids[rows] if model.face_ids is not None else rows + 1
        return self.face_patches[ids - 1]


def _onto_common_edge(gmsh, face_a: int, face_b: int, points: np.ndarray) -> np.ndarray:
    """A new vertex on the crease between two CAD faces goes to the nearest point of a curve bounding both
    (the closest point on either face alone would leave it off the other: on a flat face's chord of a curved
    edge). Faces that share no curve (a seam the mesher split) take the first face's closest point."""
    curves_a = set(gmsh.model.getAdjacencies(2, face_a)[1].tolist())
    common = [c for c in gmsh.model.getAdjacencies(2, face_b)[1].tolist() if c in curves_a]
    if not common:
        closest, _ = gmsh.model.getClosestPoint(2, face_a, points.ravel().tolist())
        return np.asarray(closest, dtype=float).reshape(-1, 3)
    best = np.empty_like(points)
    distance = np.full(len(points), np.inf)
    for curve in common:
        closest, _ = gmsh.model.getClosestPoint(1, int(curve), points.ravel().tolist())
        closest = np.asarray(closest, dtype=float).reshape(-1, 3)
        d = np.linalg.norm(closest - points, axis=1)
        better = d < distance
        best[better], distance[better] = closest[better], d[better]
    return best


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
