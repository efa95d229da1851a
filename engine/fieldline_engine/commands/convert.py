"""`convert`: reads an uploaded STEP/STL/OBJ/ZIP and returns its surface for display (spec 001 §3
"Converted model response"): triangles per body, the length unit, the bounding box and, per triangle,
the CAD face (or smooth surface patch) it belongs to.

job.json: {"inputs": [{"file", "format", "name"}], "units": "mm", "limits": {"zip": {...}}}
"""

import time
from pathlib import Path
from typing import Any

import numpy as np

from fieldline_engine import protocol
from fieldline_engine.geometry.archive import ZipLimits
from fieldline_engine.geometry.mesh_io import SurfaceBody
from fieldline_engine.geometry.sources import input_files, load_inputs
from fieldline_engine.io.job_files import read_job, write_results

# geometry.prepare and geometry.surface (scipy: ≈ 0.7 CPU s to import) are imported once the upload has
# been read: a malformed file (bad header, lying triangle count, hostile ZIP, NaN coordinates) is refused
# by load_inputs for the price of Python and numpy alone.

# Above this size the preview skips the self-intersection search (meshing still runs it).
CHECK_TRIANGLE_LIMIT = 400_000


def run_convert(job_dir: Path) -> dict[str, Any]:
    started = time.perf_counter()
    job = read_job(job_dir)
    limits = ZipLimits.from_job((job.get("limits") or {}).get("zip"))
    files = input_files(job_dir, job.get("inputs") or [])
    protocol.progress(5, "Reading the file")
    loaded = load_inputs(files, job.get("units"), job_dir, limits)
    notes = list(loaded.notes)
    warnings: list[str] = []
    if loaded.is_cad:
        from fieldline_engine.geometry.gmsh_mesher import cad_surface_preview, gmsh_session

        protocol.progress(20, "Triangulating the CAD faces")
        with gmsh_session(abort_on_error=False):
            bodies, cad_notes = cad_surface_preview(loaded.step_files, loaded.units)
        notes += cad_notes
        source_format = "step"
    else:
        from fieldline_engine.geometry.prepare import unique_names

        # The same unique names meshing will use, so the bodies match across convert and mesh.
        names = unique_names([b.name for b in loaded.bodies])
        bodies = [_indexed(b, n) for b, n in zip(loaded.bodies, names, strict=True)]
        warnings = _surface_warnings(bodies)
        source_format = files[0].fmt if len(files) == 1 else "zip"
    protocol.progress(90, "Writing the surface")
    response = _response(bodies, loaded.units)
    response.update(
        {
            "source_format": source_format,
            "notes": notes,
            "warnings": warnings,
            "repairs": [],
            "computation_time": time.perf_counter() - started,
        }
    )
    write_results(job_dir, response)
    return {"bodies": len(bodies), "triangles": int(sum(len(b.faces) for b in bodies))}


def _indexed(body: SurfaceBody, name: str) -> SurfaceBody:
    from fieldline_engine.geometry.surface import sharp_edge_patches, weld_exact

    v, f = weld_exact(body.vertices, body.faces)
    patches = sharp_edge_patches(v, f) + 1
    return SurfaceBody(name, v, f, patches, body.notes)


def _surface_warnings(bodies: list[SurfaceBody]) -> list[str]:
    """What meshing will have to repair or will refuse, told before the user asks for a mesh."""
    if sum(len(b.faces) for b in bodies) > CHECK_TRIANGLE_LIMIT:
        return ["The surface is large; it will be checked for defects when it is meshed."]
    from fieldline_engine.geometry.prepare import prepare_surface

    prep = prepare_surface(bodies, "safe", False)
    out = [f"Meshing will repair this automatically: {r.message}" for r in prep.repairs]
    out += [f"Meshing will fail unless this is fixed: {p.message}" for p in prep.problems]
    return out


def _response(bodies: list[SurfaceBody], units: str) -> dict[str, Any]:
    all_v = np.vstack([b.vertices for b in bodies])
    bbox = {"min": all_v.min(axis=0).tolist(), "max": all_v.max(axis=0).tolist()}
    patches = [
        np.asarray(b.patches if b.patches is not None else np.ones(len(b.faces)), dtype=np.int64)
        for b in bodies
    ]
    out: dict[str, Any] = {"units": units, "bounding_box": bbox}
    if len(bodies) == 1:
        b = bodies[0]
        out.update(
            {
                "vertices": b.vertices.tolist(),
                "faces": b.faces.tolist(),
                "face_patches": patches[0].tolist(),
                "name": b.name,
            }
        )
    else:
        out.update(
            {
                "meshes": [
                    {
                        "name": b.name,
                        "vertices": b.vertices.tolist(),
                        "faces": b.faces.tolist(),
                        "face_patches": p.tolist(),
                    }
                    for b, p in zip(bodies, patches, strict=True)
                ],
                "mesh_count": len(bodies),
                "format": "multi-body",
                "face_patches": np.concatenate(patches).tolist(),
            }
        )
    return out
