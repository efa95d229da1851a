"""`solve`: runs the analysis a job's config asks for and writes results.json."""

import json
import time
from pathlib import Path
from typing import Any

from fieldline_engine import protocol
from fieldline_engine.errors import EngineError
from fieldline_engine.io.job_files import read_job, write_results
from fieldline_engine.limits import thread_count
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.physics.option_support import check_options
from fieldline_engine.post.results_binary import write_results_binary
from fieldline_engine.post.touchstone import write_network_exports
from fieldline_engine.testing.hooks import apply_test_hooks


def run_solve(job_dir: Path) -> dict[str, Any]:
    started = time.perf_counter()
    _limit_threads()
    job = read_job(job_dir)
    apply_test_hooks(job)
    config: dict[str, Any] = job.get("config") or {}
    if config.get("verbose"):
        protocol.start_journal()
    analysis = config.get("analysisType", "em")
    if analysis == "em" and config.get("transient"):
        analysis = "em-time"  # the UI's Transient switch; spec 001 §3 maps it to em-time
    warnings = check_options(config, _solver_path(analysis, config)) if analysis in ANALYSES else []
    for w in warnings:
        protocol.log(w, level="warning")
    protocol.progress(2, "Reading model")
    model = model_from_mesh_data(job.get("mesh_data") or {})

    if analysis == "em":
        if _solver_path(analysis, config) == "fullwave":
            from fieldline_engine.physics.fullwave.job import solve_fullwave_job

            results = solve_fullwave_job(model, config)
        else:
            from fieldline_engine.physics.em_static_job import solve_em_static

            results = solve_em_static(model, config)
    elif analysis == "em-time":
        from fieldline_engine.physics.transient.job import solve_transient_job

        results = solve_transient_job(model, config)
    elif analysis == "em-eigen":
        from fieldline_engine.physics.fullwave.eigen_job import solve_eigen_job

        results = solve_eigen_job(model, config)
    else:
        raise EngineError("unsupported_analysis", f"Analysis type '{analysis}' is not available yet.")

    _add_warnings(results, warnings)
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
    return {"analysis": analysis, "computation_time": results["computation_time"]}


ANALYSES = ("em", "em-time", "em-eigen")


def _solver_path(analysis: str, config: dict[str, Any]) -> str:
    if analysis != "em":
        return analysis
    from fieldline_engine.physics.routing import em_solver_for

    return em_solver_for(config)


def recorded_config(config: dict[str, Any]) -> dict[str, Any]:
    """The analysis config as the engine received it (spec 001 §3 backend form; it holds no secrets: the
    server passes the user's form through). Meshing-only keys and oversized unknown extras are left out so
    the copy stays small whatever a client sent."""
    kept: dict[str, Any] = {}
    for key, value in config.items():
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


def _add_warnings(results: dict[str, Any], warnings: list[str]) -> None:
    """Fields the analysis left out, next to the solver's own warnings (and the time-domain notes the
    results panel lists)."""
    if not warnings:
        return
    info = results.setdefault("solver_info", {})
    info["warnings"] = [*info.get("warnings", []), *warnings]
    tdi = results.get("time_domain_info")
    if isinstance(tdi, dict):
        tdi["notes"] = [*tdi.get("notes", []), *warnings]


def _limit_threads() -> None:
    """NGSolve's TaskManager spins its workers: more threads than the job's share of cores (several
    jobs per machine) slows it down by orders of magnitude, so it gets FIELDLINE_THREADS."""
    import ngsolve as ng

    ng.SetNumThreads(thread_count())
