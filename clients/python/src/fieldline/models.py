"""Geometry objects: an uploaded model and its volume mesh, with face ids for boundary conditions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Upload:
    """A model stored on the server (POST /api/convert-step): its surface, bodies and CAD faces."""

    upload_id: str
    file_name: str
    units: str
    body_names: list[str]
    #: per surface triangle of the preview surface, the CAD face (or smooth patch) it belongs to
    face_patches: list[int]
    bounding_box: dict[str, list[float]]
    raw: dict[str, Any] = field(repr=False, default_factory=dict)

    @property
    def surface_count(self) -> int:
        """How many CAD faces (surfaces) the model has."""
        return len(set(self.face_patches))


@dataclass
class Mesh:
    """A tetrahedral volume mesh (a completed meshing job), ready to submit with an analysis config.

    Face ids in a config name surface triangles: id k is ``triangles[k - 1]`` (as in the browser's face
    picker). ``faces_of_patch`` lists the ids of one CAD face; ``faces_on_plane`` those on a plane.
    """

    job_id: str
    units: str
    vertices: np.ndarray
    triangles: np.ndarray
    tetrahedra: np.ndarray
    face_patches: np.ndarray
    tetrahedron_regions: np.ndarray
    region_names: list[str]
    upload: Upload | None = None
    raw: dict[str, Any] = field(repr=False, default_factory=dict)

    def mesh_data(self) -> dict[str, Any]:
        """The `mesh_data` of POST /api/fea/submit for this mesh."""
        raw = self.raw
        keys = (
            "vertices",
            "faces",
            "tetrahedra",
            "tetrahedron_regions",
            "region_names",
            "face_patches",
            "units",
        )
        return {k: raw[k] for k in keys if k in raw}

    def faces_of_patch(self, patch: int) -> list[int]:
        """Face ids (1-based triangle ids) of one CAD face / surface patch."""
        return [int(i) + 1 for i in np.flatnonzero(self.face_patches == patch)]

    def faces_on_plane(self, axis: int | str, value: float, tolerance: float | None = None) -> list[int]:
        """Face ids of the surface triangles lying on the plane x|y|z = value (model units)."""
        index = "xyz".index(axis) if isinstance(axis, str) else axis
        span = float(np.ptp(self.vertices[:, index])) if len(self.vertices) else 1.0
        tol = tolerance if tolerance is not None else 1e-6 * max(span, 1e-12) + 1e-12
        coords = self.vertices[self.triangles][:, :, index]
        on = np.all(np.abs(coords - value) <= tol, axis=1)
        return [int(i) + 1 for i in np.flatnonzero(on)]
