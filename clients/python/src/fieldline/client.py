"""The Fieldline client: upload, mesh, run, results, materials, usage."""

from __future__ import annotations

import mimetypes
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from . import api_models as api
from ._http import Http
from .errors import FieldlineError
from .jobs import Job
from .models import Mesh, Upload
from .studies import Parameters, Study, study_request

# Friendly names for the meshing options (the config keys are accepted as they are too).
MESH_OPTION_ALIASES = {
    "max_size": "meshMaxSize",
    "min_size": "meshMinSize",
    "grading": "meshGrading",
    "algorithm": "meshAlgorithm",
    "repair": "meshRepair",
    "curvature_refinement": "meshCurvatureRefinement",
    "elements_per_circle": "meshElementsPerCircle",
    "body_max_sizes": "meshBodyMaxSizes",
    "allow_shape_repair": "meshAllowShapeRepair",
}


class Client:
    """A Fieldline server and an API token (or FIELDLINE_URL and FIELDLINE_TOKEN from the environment).

    >>> fl = Client("https://fieldline.example", "fl_…")
    >>> part = fl.upload("bracket.step")
    >>> mesh = fl.mesh(part, max_size=2)
    >>> job = fl.run(mesh, {"analysisType": "structural", ...})
    >>> job.results().fields["von_mises"].max()
    """

    def __init__(
        self,
        base_url: str | None = None,
        token: str | None = None,
        *,
        timeout: float = 120.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._http = Http(base_url, token, timeout=timeout, transport=transport)

    @property
    def base_url(self) -> str:
        return self._http.base_url

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- geometry -------------------------------------------------------------------------------
    def upload(self, path: str | Path, units: str | None = None) -> Upload:
        """Uploads a STEP/STP/STL/OBJ/ZIP model; returns its bodies and surfaces (CAD faces).

        ``units`` is the length unit of STL/OBJ files (mm, cm, m, in, um, ft; default mm); STEP
        files declare their own.
        """
        file = Path(path)
        data: dict[str, str] = {"force_tet": "true"}
        if units:
            data["units"] = units
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        with file.open("rb") as handle:
            body: api.ConvertResponse = self._http.json(
                "POST", "/api/convert-step", files={"file": (file.name, handle, kind)}, data=data
            )
        meshes: list[Any] = list(body.get("meshes") or [])
        box = body.get("bounding_box")
        names = [m.get("name", f"body {i + 1}") for i, m in enumerate(meshes)] or [
            body.get("name") or file.stem
        ]
        return Upload(
            upload_id=body["upload_id"],
            file_name=file.name,
            units=body.get("units", "m"),
            body_names=names,
            face_patches=list(body.get("face_patches") or []),
            bounding_box={"min": list(box["min"]), "max": list(box["max"])} if box else {},
            raw=dict(body),
        )

    def mesh(self, upload: Upload | str, *, progress: bool | None = None, **mesh_options: Any) -> Mesh:
        """Meshes an upload into tetrahedra (a meshing job) and returns the volume mesh.

        Options: ``max_size``, ``min_size`` (model units), ``grading``, ``algorithm``, ``repair``,
        ``curvature_refinement``, ``elements_per_circle`` — or the config keys themselves (``meshMaxSize`` …).
        """
        upload_id = upload.upload_id if isinstance(upload, Upload) else upload
        config: dict[str, Any] = {"analysisType": "tetra-only", "meshingOnly": True}
        for key, value in mesh_options.items():
            config[MESH_OPTION_ALIASES.get(key, key)] = value
        mesh_data: dict[str, Any] = {"source_upload_id": upload_id}
        if isinstance(upload, Upload):
            mesh_data["units"] = upload.units
        job = self.submit(mesh_data, config, kind="meshing")
        job.wait(progress=progress)
        status = job.last_status or {}
        results = status.get("results")
        if not isinstance(results, dict) or not results.get("tetrahedra"):
            raise FieldlineError("Backend returned no tetrahedra", code="meshing_failed", body=status)
        return mesh_from_results(job.id, results, upload if isinstance(upload, Upload) else None)

    # --- analyses -------------------------------------------------------------------------------
    def submit(self, mesh_data: Mapping[str, Any], config: Mapping[str, Any], kind: str = "analysis") -> Job:
        """POST /api/fea/submit; returns the queued job (402, 413, 429 … raise FieldlineError)."""
        body = {"mesh_data": dict(mesh_data), "config": dict(config)}
        reply: api.SubmitResponse = self._http.json("POST", "/api/fea/submit", json=body)
        if reply.get("status") == "error" or not reply.get("job_id"):
            raise FieldlineError(
                str(reply.get("message") or "Failed to submit analysis"), code="submit_failed", body=reply
            )
        return Job(self, reply["job_id"], kind)

    def run(
        self,
        mesh: Mesh | Mapping[str, Any],
        config: Mapping[str, Any],
        *,
        wait: bool = True,
        timeout: float | None = -1,
        progress: bool | None = None,
    ) -> Job:
        """Submits an analysis of ``mesh`` (a Mesh, or a mesh_data dict) and, by default, waits for it.

        A progress bar shows on a terminal; ``timeout`` as in ``Job.wait``. A failed job raises FieldlineError.
        """
        mesh_data = mesh.mesh_data() if isinstance(mesh, Mesh) else mesh
        job = self.submit(mesh_data, config)
        if wait:
            job.wait(timeout=timeout, progress=progress)
        return job

    def job(self, job_id: str) -> Job:
        """One of your jobs by id (someone else's, or an unknown id, raises FieldlineError 404)."""
        info = self._http.json("GET", f"/api/fea/results/{job_id}/info")
        return Job(self, job_id, str(info.get("kind") or "analysis"))

    # --- design studies (docs/studies.md) -----------------------------------------------------------
    def study(
        self,
        model: Mesh | Upload | str | Mapping[str, Any],
        config: Mapping[str, Any],
        *,
        outputs: Sequence[str],
        parameters: Parameters | None = None,
        combine: str = "grid",
        convergence: Mapping[str, Any] | None = None,
        name: str | None = None,
        wait: bool = True,
        timeout: float | None = None,
        progress: bool | None = None,
    ) -> Study:
        """Creates a design study (POST /api/fea/studies) and, by default, waits for all its points.

        ``parameters``: path → values (``{"frequency": [9e9, 10e9]}``), path → range
        (``{"meshMaxSize": {"from": 4, "to": 1, "steps": 4, "scale": "log"}}``), or the API's list.
        ``combine``: "grid" (every combination) or "zip". ``outputs``: results quantities
        (``max_von_mises_Pa``), ``frequencies[i]``, ``|S21|@10e9`` …. ``convergence``: ``{output, tolerance,
        startSize, ratio, maxPoints}`` for a mesh-convergence study (no parameters; needs the upload).
        A refusal (400 with the path and value, 402 for the whole study …) raises FieldlineError.
        """
        body = study_request(
            model,
            config,
            outputs=outputs,
            parameters=parameters,
            combine=combine,
            convergence=convergence,
            name=name,
        )
        reply: api.CreateStudyResponse = self._http.json("POST", "/api/fea/studies", json=body)
        study = Study(self, reply["study_id"])
        if wait:
            study.wait(timeout=timeout, progress=progress)
        return study

    def get_study(self, study_id: str) -> Study:
        """One of your studies by id (someone else's, or an unknown id, raises FieldlineError 404)."""
        study = Study(self, study_id)
        study.status()
        return study

    def studies(self) -> list[api.StudyListResponseStudiesItem]:
        """Your 50 newest studies with their progress (GET /api/fea/studies); ``get_study(s["study_id"])``."""
        reply: api.StudyListResponse = self._http.json("GET", "/api/fea/studies")
        return list(reply["studies"])

    # --- library and account --------------------------------------------------------------------
    def materials(self) -> list[api.MaterialsResponseMaterialsItem]:
        """The material library (SI properties for every physics family)."""
        reply: api.MaterialsResponse = self._http.json("GET", "/api/materials")
        return list(reply["materials"])

    def subscription(self) -> api.SubscriptionInfoResponse:
        """Plan, status and usage (GET /api/user/subscription-info)."""
        reply: api.SubscriptionInfoResponse = self._http.json("GET", "/api/user/subscription-info")
        return reply

    def health(self) -> api.HealthResponse:
        """Engine and queue health (GET /api/fea/health)."""
        reply: api.HealthResponse = self._http.json("GET", "/api/fea/health")
        return reply


def mesh_from_results(job_id: str, results: Mapping[str, Any], upload: Upload | None = None) -> Mesh:
    """A Mesh from a completed meshing job's results."""
    raw = dict(results)
    return Mesh(
        job_id=job_id,
        units=str(raw.get("units") or (upload.units if upload else "m")),
        vertices=np.asarray(raw.get("vertices") or [], dtype=np.float64).reshape(-1, 3),
        triangles=np.asarray([f[:3] for f in raw.get("faces") or []], dtype=np.int64).reshape(-1, 3),
        tetrahedra=np.asarray(raw.get("tetrahedra") or [], dtype=np.int64).reshape(-1, 4),
        face_patches=np.asarray(raw.get("face_patches") or [], dtype=np.int64),
        tetrahedron_regions=np.asarray(raw.get("tetrahedron_regions") or [], dtype=np.int64),
        region_names=list(raw.get("region_names") or []),
        upload=upload,
        raw=raw,
    )
