"""The meshing pipeline: which mesher runs when, and what the user gets when all of them fail.

CAD (STEP): heal and fragment with OpenCascade → gmsh HXT → gmsh Delaunay (its boundary recovery
names the failing CAD faces) → Netgen.
Triangles (STL/OBJ/mesh data): check → safe repairs (reported) → refine long edges (shape kept) →
gmsh HXT → gmsh Delaunay → Netgen, all keeping the surface.
Every attempt runs in its own process; its output is validated (positive volumes, surface preserved,
watertight) before it is accepted.
"""

import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy.spatial import cKDTree

from fieldline_engine import protocol
from fieldline_engine.errors import EngineError
from fieldline_engine.geometry import gmsh_mesher, netgen_mesher
from fieldline_engine.geometry.diagnostics import Problem, Repair, failure_message, fmt_point, list_ids
from fieldline_engine.geometry.isolation import AttemptResult, run_isolated
from fieldline_engine.geometry.mesh_io import SurfaceBody
from fieldline_engine.geometry.options import MeshOptions, check_estimated_size, mesh_options
from fieldline_engine.geometry.prepare import PreparedSurface, prepare_surface
from fieldline_engine.geometry.quality import min_dihedral_angles, quality_report
from fieldline_engine.geometry.refine import refine_to_size
from fieldline_engine.geometry.slivers import sliver_report
from fieldline_engine.geometry.surface import bbox_diagonal
from fieldline_engine.geometry.volume_mesh import VolumeMesh, finalize

LABEL = {"hxt": "gmsh HXT", "delaunay": "gmsh Delaunay", "netgen": "Netgen"}
GEOMETRIC_CODES = {"meshing_failed", "mesher_error"}


@dataclass
class MeshSuccess:
    mesh: VolumeMesh
    options: MeshOptions
    attempts: list[dict[str, Any]]
    repairs: list[Repair] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    quality: dict[str, Any] = field(default_factory=dict)


@dataclass
class MeshFailure:
    message: str
    payload: dict[str, Any]
    attempts: list[dict[str, Any]] = field(default_factory=list)


def _order(opts: MeshOptions) -> list[str]:
    return ["hxt", "delaunay", "netgen"] if opts.algorithm == "auto" else [opts.algorithm]


def _record(
    attempts: list[dict[str, Any]], mesher: str, started: float, result: AttemptResult | None, error: str = ""
) -> None:
    attempts.append(
        {
            "mesher": LABEL[mesher],
            "ok": result is not None and result.ok and not error,
            "seconds": round(time.perf_counter() - started, 3),
            "message": error or (result.message if result and not result.ok else ""),
        }
    )


def _run_attempts(
    kind: str, order: list[str], run, args: tuple, workdir: Path
) -> tuple[VolumeMesh | None, list[dict[str, Any]], dict[str, AttemptResult]]:
    """`run(mesher, *args)` is a module-level function, executed in a child process per mesher."""
    attempts: list[dict[str, Any]] = []
    failures: dict[str, AttemptResult] = {}
    for k, mesher in enumerate(order):
        protocol.progress(20 + 60 * k / len(order), f"Meshing the {kind} with {LABEL[mesher]}")
        started = time.perf_counter()
        result = run_isolated(run, mesher, *args, workdir=workdir)
        if result.ok:
            try:
                mesh = finalize(result.value)
            except EngineError as exc:
                _record(attempts, mesher, started, result, exc.message)
                failures[mesher] = AttemptResult(False, None, exc.code, exc.message)
                continue
            _record(attempts, mesher, started, result)
            return mesh, attempts, failures
        _record(attempts, mesher, started, result)
        failures[mesher] = result
    return None, attempts, failures


def _summary(failures: dict[str, AttemptResult]) -> tuple[str, bool]:
    text = "; ".join(f"{LABEL[m]}: {r.message}" for m, r in failures.items())
    geometric = any(r.code in GEOMETRIC_CODES for r in failures.values())
    return text, geometric


def _success(mesh: VolumeMesh, opts, attempts, repairs=None, notes=None) -> MeshSuccess:
    protocol.progress(85, "Checking mesh quality")
    failed = [a["mesher"] for a in attempts if not a["ok"]]
    extra = (
        [f"{', '.join(failed)} failed; the mesh was made with {attempts[-1]['mesher']}."] if failed else []
    )
    return MeshSuccess(
        mesh,
        opts,
        attempts,
        repairs or [],
        (notes or []) + mesh.notes + extra,
        quality_report(mesh.vertices, mesh.tets),
    )


# ---------------------------------------------------------------------------------------------- CAD


def _cad_info(files: list[Path], unit: str):
    with gmsh_mesher.gmsh_session():
        bodies = gmsh_mesher.load_step(files, unit, heal=False)
        return gmsh_mesher.model_diagonal(), [(b.name, b.centre, b.volume) for b in bodies]


def _cad_attempt(mesher: str, files, unit, opts, bodies, threads) -> VolumeMesh:
    if mesher == "netgen":
        return netgen_mesher.mesh_cad(files, unit, opts, bodies)
    with gmsh_mesher.gmsh_session(threads=threads):
        return gmsh_mesher.mesh_cad(files, unit, opts, mesher)


def mesh_cad_model(
    files: list[Path], unit: str, config: dict[str, Any], threads: int, workdir: Path
) -> MeshSuccess | MeshFailure:
    protocol.progress(5, "Reading the CAD model")
    info = run_isolated(_cad_info, files, unit, workdir=workdir)
    if not info.ok:
        if info.code == "mesher_crashed":
            raise EngineError("cad_parser_crashed", f"The STEP file could not be read: {info.message}.")
        raise EngineError(info.code or "invalid_input", info.message)
    diagonal, bodies = info.value
    names = [b[0] for b in bodies]
    opts = mesh_options(config, diagonal, names, threads)
    check_estimated_size(sum(b[2] for b in bodies), opts, [b[2] for b in bodies])

    args = (files, unit, opts, bodies, threads)
    mesh, attempts, failures = _run_attempts("CAD model", _order(opts), _cad_attempt, args, workdir)
    if mesh is not None:
        return _success(mesh, opts, attempts)
    return _cad_failure(failures, attempts, unit)


def _cad_failure(failures: dict[str, AttemptResult], attempts, unit: str) -> MeshFailure:
    text, geometric = _summary(failures)
    details = [r.value for r in failures.values() if isinstance(r.value, gmsh_mesher.FailureDetails)]
    best = next((d for d in details if d.surfaces and d.surface is not None), None) or next(
        (d for d in details if d.surface is not None), None
    )
    problems: list[Problem] = []
    vertices = np.zeros((0, 3))
    faces = np.zeros((0, 3), dtype=np.int64)
    if best is not None and best.surface is not None:
        vertices, faces, patches = best.surface
        tree = cKDTree(vertices) if len(vertices) else None
        for s in best.surfaces:
            rows = np.nonzero(patches == s)[0]
            body = best.body_of_patch.get(s)
            where = f" of body '{body}'" if body else ""
            point = best.points[0] if best.points else None
            problems.append(
                Problem(
                    "cad_face",
                    f"CAD face {s}{where} could not be filled with tetrahedra: its surface mesh intersects or "
                    f"overlaps another face{' near ' + fmt_point(point) if point else ''} "
                    f"({best.message}).",
                    faces=rows.tolist(),
                    vertices=np.unique(faces[rows]).tolist() if len(rows) else [],
                    point=point,
                    body=body,
                )
            )
        if best.points and tree is not None:
            _, idx = tree.query(np.asarray(best.points))
            idx = np.unique(idx)
            touching = np.nonzero(np.isin(faces, idx).any(axis=1))[0]
            problems.append(
                Problem(
                    "self_intersection",
                    f"The mesher stopped at {len(idx)} surface vertices where triangles intersect "
                    f"(self-intersections), near {fmt_point(best.points[0])}: triangles {list_ids(touching.tolist())}.",
                    faces=touching.tolist(),
                    vertices=idx.tolist(),
                    point=best.points[0],
                )
            )
    if not problems:
        problems.append(Problem("mesher", f"Every mesher failed: {text}."))
    if geometric:
        message = f"Tetrahedralization failed: the surface mesh of the CAD model could not be filled with tetrahedra ({text})."
    else:
        message = f"Tetrahedralization failed: {text}."
    payload = _payload(vertices, faces, problems, message, unit, attempts)
    return MeshFailure(message, payload, attempts)


def _payload(vertices, faces, problems, message, unit, attempts) -> dict[str, Any]:
    from fieldline_engine.geometry.diagnostics import problem_markers_payload

    return problem_markers_payload(vertices, faces, problems, message, unit, {"attempts": attempts})


# --------------------------------------------------------------------------------------- triangles


def mesh_triangle_model(
    bodies: list[SurfaceBody], unit: str, config: dict[str, Any], threads: int, workdir: Path
) -> MeshSuccess | MeshFailure:
    protocol.progress(5, "Checking the surface mesh")
    repair = config.get("meshRepair", "safe")
    if repair not in ("safe", "none"):
        raise EngineError("invalid_input", "meshRepair must be 'safe' or 'none'.")
    prep = prepare_surface(bodies, repair, bool(config.get("meshAllowShapeRepair", False)))
    if prep.problems or prep.surface is None:
        message = failure_message(prep.problems, "Tetrahedralization failed")
        payload = _payload(prep.report_vertices, prep.report_faces, prep.problems, message, unit, [])
        payload["repairs"] = [r.message for r in prep.repairs]
        return MeshFailure(message, payload)
    surface = prep.surface
    opts = mesh_options(config, bbox_diagonal(surface.vertices), surface.body_names, threads)
    check_estimated_size(sum(surface.body_volumes), opts, surface.body_volumes)
    protocol.progress(12, "Refining long surface edges")
    refined = _refine(surface, opts)

    mesh, attempts, failures = _run_attempts(
        "surface", _order(opts), _triangle_attempt, (refined, opts, threads), workdir
    )
    if mesh is not None:
        return _success(mesh, opts, attempts, prep.repairs)
    return _triangle_failure(prep, refined, failures, attempts, unit)


def _triangle_attempt(mesher: str, refined: PreparedSurface, opts: MeshOptions, threads: int) -> VolumeMesh:
    if mesher == "netgen":
        return netgen_mesher.mesh_triangles(refined, opts)
    with gmsh_mesher.gmsh_session(threads=threads):
        return gmsh_mesher.mesh_triangles(refined, opts, mesher)


def _refine(surface: PreparedSurface, opts: MeshOptions) -> PreparedSurface:
    sizes = np.array([opts.size_of(b) for b in range(len(surface.body_names))] + [opts.max_size])
    target = np.minimum(sizes[surface.inside], sizes[surface.outside])  # index -1 → global size
    attrs = {
        "inside": surface.inside,
        "outside": surface.outside,
        "patch": surface.patch,
        "origin": surface.origin,
    }
    v, f, a = refine_to_size(surface.vertices, surface.faces, target, attrs)
    return dataclasses.replace(surface, vertices=v, faces=f, **a)


def _triangle_failure(prep, refined: PreparedSurface, failures, attempts, unit: str) -> MeshFailure:
    text, geometric = _summary(failures)
    problems: list[Problem] = []
    report_tree = cKDTree(prep.report_vertices)
    for result in failures.values():
        d = result.value
        if not isinstance(d, gmsh_mesher.FailureDetails) or not (d.surfaces or d.points):
            continue
        rows = np.nonzero(np.isin(refined.patch, d.surfaces))[0]
        ids = sorted({int(o) for o in refined.origin[rows] if o >= 0})
        verts: list[int] = []
        if d.points:
            dist, idx = report_tree.query(np.asarray(d.points))
            verts = sorted({int(i) for i in idx})
        point = d.points[0] if d.points else None
        problems.append(
            Problem(
                "self_intersection",
                f"The mesher could not recover the surface mesh near {fmt_point(point) if point else 'the marked faces'}: "
                f"triangles there intersect or nearly touch (self-intersections). {d.message}",
                faces=ids,
                vertices=verts,
                point=point,
            )
        )
        break
    if not problems:
        problems.append(Problem("mesher", f"Every mesher failed: {text}."))
    if geometric:
        message = f"Tetrahedralization failed: the surface mesh could not be filled with tetrahedra ({text})."
    else:
        message = f"Tetrahedralization failed: {text}."
    payload = _payload(prep.report_vertices, prep.report_faces, problems, message, unit, attempts)
    payload["repairs"] = [r.message for r in prep.repairs]
    return MeshFailure(message, payload, attempts)


def mesh_results(success: MeshSuccess, unit: str, started: float) -> dict[str, Any]:
    m = success.mesh
    return {
        "vertices": m.vertices.tolist(),
        "faces": m.faces.tolist(),
        "tetrahedra": m.tets.tolist(),
        "tetrahedron_regions": m.regions.tolist(),
        "region_names": m.region_names,
        "face_patches": m.face_patches.astype(np.int64).tolist(),
        "units": unit,
        "mesher": m.mesher,
        "attempts": success.attempts,
        "repairs": [r.message for r in success.repairs],
        "repair_details": [r.to_json() for r in success.repairs],
        "notes": success.notes,
        "mesh_size": success.options.describe(m.region_names),
        "quality": success.quality,
        "slivers": sliver_report(
            m.vertices, m.tets, m.faces, m.face_patches, min_dihedral_angles(m.vertices, m.tets)
        )
        if success.quality["slivers"]
        else None,
        "computation_time": time.perf_counter() - started,
    }
