"""`mesh`: tetrahedral meshing of an uploaded model (the original CAD or triangle files when the job
has `source`, otherwise the surface in mesh_data). Writes results.json on success; on failure writes
the problem markers (spec 001 §3) to tetra_output.json and reports a `meshing_failed` error.

job.json: {"mesh_data": {...}, "config": {...}, "source": {"inputs": [...], "units": "mm"}, "limits": {...}}
"""

import time
from pathlib import Path
from typing import Any

import numpy as np

from fieldline_engine import protocol
from fieldline_engine.errors import EngineError, InvalidInput
from fieldline_engine.geometry.archive import ZipLimits
from fieldline_engine.geometry.mesh_io import SurfaceBody
from fieldline_engine.geometry.pipeline import MeshFailure, mesh_cad_model, mesh_results, mesh_triangle_model
from fieldline_engine.geometry.sources import LENGTH_UNITS, input_files, load_inputs
from fieldline_engine.io.job_files import read_job, write_json_atomic, write_results
from fieldline_engine.limits import mesh_thread_count

PROBLEM_MARKERS_FILE = "tetra_output.json"


def run_mesh(job_dir: Path) -> dict[str, Any]:
    started = time.perf_counter()
    job = read_job(job_dir)
    config: dict[str, Any] = job.get("config") or {}
    mesh_data: dict[str, Any] = job.get("mesh_data") or {}
    source = job.get("source")
    threads = mesh_thread_count()
    work = job_dir / "work"
    work.mkdir(exist_ok=True)
    if source:
        limits = ZipLimits.from_job((job.get("limits") or {}).get("zip"))
        loaded = load_inputs(
            input_files(job_dir, source.get("inputs") or []), source.get("units"), work, limits
        )
        unit = loaded.units
        if loaded.is_cad:
            outcome = mesh_cad_model(loaded.step_files, unit, config, threads, work)
        else:
            outcome = mesh_triangle_model(loaded.bodies, unit, config, threads, work)
    else:
        unit = _unit(mesh_data)
        outcome = mesh_triangle_model(bodies_from_mesh_data(mesh_data), unit, config, threads, work)

    if isinstance(outcome, MeshFailure):
        write_json_atomic(job_dir / PROBLEM_MARKERS_FILE, outcome.payload)
        raise EngineError("meshing_failed", outcome.message)
    protocol.progress(92, "Writing the volume mesh")
    results = mesh_results(outcome, unit, started)
    write_results(job_dir, results)
    return {
        "tetrahedra": len(outcome.mesh.tets),
        "mesher": outcome.mesh.mesher,
        "min_dihedral_deg": outcome.quality["min_dihedral_deg"],
    }


def _unit(mesh_data: dict[str, Any]) -> str:
    unit = str(mesh_data.get("units") or "m").lower()
    if unit not in LENGTH_UNITS:
        raise InvalidInput(f"Unknown length unit '{unit}'. Use one of: {', '.join(LENGTH_UNITS)}.")
    return unit


def _body(name: str, vertices: Any, faces: Any, patches: Any) -> SurfaceBody:
    v = np.asarray(vertices or [], dtype=np.float64)
    f = np.asarray(faces or [], dtype=np.int64)
    if v.ndim != 2 or v.shape[1:] != (3,) or len(v) == 0:
        raise InvalidInput("Invalid mesh data: No vertices found.")
    if not np.all(np.isfinite(v)):
        raise InvalidInput("Invalid mesh data: a vertex coordinate is not a finite number.")
    if f.ndim != 2 or len(f) == 0:
        raise InvalidInput("Invalid mesh data: No elements (tetrahedra or faces) found.")
    if f.shape[1] != 3:
        # Polygons: fan-triangulate (rare in mesh_data; the viewer sends triangles).
        raise InvalidInput("Invalid mesh data: surface faces must be triangles for meshing.")
    if f.min() < 0 or f.max() >= len(v):
        raise InvalidInput("Invalid mesh data: a face refers to a missing vertex.")
    p = np.asarray(patches, dtype=np.int64) if patches is not None and len(patches) == len(f) else None
    return SurfaceBody(name, v, f, p)


def bodies_from_mesh_data(mesh_data: dict[str, Any]) -> list[SurfaceBody]:
    meshes = mesh_data.get("meshes")
    if meshes:
        return [
            _body(
                str(m.get("name") or f"Body {k + 1}"),
                m.get("vertices"),
                m.get("faces"),
                m.get("face_patches"),
            )
            for k, m in enumerate(meshes)
        ]
    return [_body("Body 1", mesh_data.get("vertices"), mesh_data.get("faces"), mesh_data.get("face_patches"))]
