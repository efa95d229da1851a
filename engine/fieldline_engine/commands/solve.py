"""`solve`: runs the analysis a job's config asks for and writes results.json."""

import json
import time
from pathlib import Path
from typing import Any

from fieldline_engine import analyses, protocol  # noqa: F401 — analyses registers the families
from fieldline_engine.core import ranks
from fieldline_engine.core.adaptive.job import adaptive_solve, refined_mesh_extras
from fieldline_engine.core.adaptive.settings import adaptive_requested
from fieldline_engine.core.given_fields import parse_given, with_given
from fieldline_engine.core.registry import analysis_for
from fieldline_engine.core.results import results_from_solution
from fieldline_engine.io.job_files import read_fields_from, read_job, write_results
from fieldline_engine.limits import thread_count
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.post.results_binary import write_results_binary
from fieldline_engine.post.touchstone import write_network_exports
from fieldline_engine.protocol import ProgressSpan


def run_solve(job_dir: Path) -> dict[str, Any]:
    started = time.perf_counter()
    _limit_threads()
    job = read_job(job_dir)
    config: dict[str, Any] = job.get("config") or {}
    fields_from = read_fields_from(job_dir)
    if fields_from is not None:
        config = with_given(config, parse_given(fields_from))
    if config.get("verbose"):
        protocol.start_journal()
    analysis = analysis_for(config)
    if not ranks.is_root() and not distributable(analysis, config):
        return {}  # an MPI rank with nothing to share: rank 0 runs the analysis alone
    warnings = analysis.check(config)
    for w in warnings:
        protocol.log(w, level="warning")
    protocol.progress(2, "Reading model")
    mesh_data = job.get("mesh_data") or {}
    model = model_from_mesh_data(mesh_data)
    if adaptive_requested(config):
        # Passes of solve → estimate → refine (core/adaptive/); the results describe the final mesh.
        model, solution = adaptive_solve(analysis, model, config, job, job_dir, ProgressSpan(5, 90))
    else:
        solution = analysis.solve(model, config, ProgressSpan(5, 90))
    if not ranks.is_root():
        return {}  # its solves went to rank 0, which writes the results
    solution.warnings.extend(warnings)
    results = results_from_solution(model, solution)
    results.update(refined_mesh_extras(model, mesh_data))
    results["computation_time"] = time.perf_counter() - started
    if config.get("verbose"):
        results["solver_info"]["log"] = protocol.journal()
    # Vertices stay in the model's unit; say which, so the viewer labels lengths correctly.
    results.setdefault("length_unit", (job.get("mesh_data") or {}).get("units") or "m")
    # What produced these fields: a saved results file can be reopened, read and run again as it was.
    results["analysis_config"] = recorded_config(config)
    protocol.progress(95, "Writing results")
    write_results(job_dir, results)
    # The viewer's binary twin: geometry and fields as typed arrays, never large JSON text.
    write_results_binary(job_dir, results, results["length_unit"])
    write_network_exports(job_dir, results)
    return {"analysis": analysis.analysis_type, "computation_time": results["computation_time"]}


def distributable(analysis: Any, config: dict[str, Any]) -> bool:
    """Whether the ranks of an MPI job share this analysis: the family says so through an optional
    `distributable(config)` (em: a full-wave run's sweep); any other runs on rank 0 alone."""
    decide = getattr(analysis, "distributable", None)
    return bool(decide(config)) if decide else False


def recorded_config(config: dict[str, Any]) -> dict[str, Any]:
    """The analysis config as the engine received it (spec 001 §3 backend form; it holds no secrets: the
    server passes the user's form through). Meshing-only keys and oversized unknown extras are left out so
    the copy stays small whatever a client sent."""
    kept: dict[str, Any] = {}
    for key, value in config.items():
        if key.startswith("_"):
            continue  # private engine keys (given fields: core/given_fields.py), not the user's settings
        if key.startswith("mesh") and key != "meshOrder":
            continue  # meshing controls (meshMaxSize, …) and meshingOnly: not part of an analysis
        if key in RECORDED_LIST_KEYS or len(json.dumps(value, default=str)) <= MAX_RECORDED_VALUE_CHARS:
            kept[key] = value
    return kept


# Lists the form builds (boundary groups, ports, probes, materials) are kept whole; other values over this
# size are unknown extras a client sent along, not settings of the run.
MAX_RECORDED_VALUE_CHARS = 2000
RECORDED_LIST_KEYS = frozenset(
    {
        "dirichletConditions",
        "dirichletFaceConditions",
        "neumannConditions",
        "impedanceConditions",
        "wavePorts",
        "probePoints",
        "volumeCurrents",
        "anisotropicMaterials",
        "bodyMaterials",
    }
)


def _limit_threads() -> None:
    """NGSolve's TaskManager spins its workers: more threads than the job's share of cores (several
    jobs per machine) slows it down by orders of magnitude, so it gets FIELDLINE_THREADS."""
    import ngsolve as ng

    ng.SetNumThreads(thread_count())
