"""`fieldline` command line: run a model end to end, sweep it in a study, check a job, download results.

Exit codes (docs/api.md): 0 done; 1 the job failed or was cancelled; 2 bad usage or input file;
3 authentication (invalid, revoked or expired token; wrong scope); 4 refused by a limit (402 balance,
413 size, 429 rate or concurrency); 5 timed out waiting (the job may still be running); 6 the server
could not be reached or answered with an error.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .client import Client
from .errors import FieldlineError

EXIT_OK = 0
EXIT_JOB_FAILED = 1
EXIT_USAGE = 2
EXIT_AUTH = 3
EXIT_LIMIT = 4
EXIT_TIMEOUT = 5
EXIT_SERVER = 6


def exit_code_for(err: FieldlineError) -> int:
    if err.code in ("job_failed", "job_cancelled", "meshing_failed", "submit_failed"):
        return EXIT_JOB_FAILED
    if err.code == "timeout" and err.status is None:
        return EXIT_TIMEOUT
    if err.code == "configuration":
        return EXIT_USAGE
    if err.status in (401, 403):
        return EXIT_AUTH
    if err.status in (402, 413, 429):
        return EXIT_LIMIT
    if err.status is not None and 400 <= err.status < 500:
        return EXIT_USAGE
    return EXIT_SERVER


def _client(args: argparse.Namespace) -> Client:
    return Client(args.url, args.token)


def load_setup(path: Path | None, physics: str | None) -> tuple[dict[str, Any], dict[str, Any], str | None]:
    """(config, mesh options, units) from a set-up file: either an analysis config, or
    ``{"config": {...}, "mesh": {...}, "units": "mm"}`` as `Export as script` and docs/api.md describe."""
    setup: dict[str, Any] = {}
    if path is not None:
        try:
            setup = json.loads(path.read_text())
        except (OSError, ValueError) as err:
            raise SystemExit(_usage(f"cannot read the set-up file {path}: {err}")) from err
        if not isinstance(setup, dict):
            raise SystemExit(_usage(f"{path} must hold a JSON object"))
    if "config" in setup and isinstance(setup["config"], dict):
        config = dict(setup["config"])
        mesh = dict(setup.get("mesh") or {})
        units = setup.get("units")
    else:
        config, mesh, units = dict(setup), {}, None
    if physics:
        config["analysisType"] = physics
    if "analysisType" not in config:
        raise SystemExit(
            _usage(
                "say which physics: --physics structural|thermal|vibration|em (or analysisType in the set-up)"
            )
        )
    return config, mesh, units


def _usage(message: str) -> int:
    print(f"fieldline: {message}", file=sys.stderr)
    return EXIT_USAGE


def cmd_run(args: argparse.Namespace) -> int:
    model = Path(args.model)
    if not model.is_file():
        return _usage(f"no such file: {model}")
    config, mesh_options, units = load_setup(Path(args.config) if args.config else None, args.physics)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with _client(args) as fl:
        upload = fl.upload(model, units=args.units or units)
        print(
            f"Uploaded {model.name}: {len(upload.body_names)} bod{'y' if len(upload.body_names) == 1 else 'ies'}, "
            f"{upload.surface_count} surfaces ({upload.units})",
            file=sys.stderr,
        )
        mesh = fl.mesh(upload, progress=args.progress, **mesh_options)
        print(f"Meshed: {len(mesh.tetrahedra)} tetrahedra, {len(mesh.vertices)} vertices", file=sys.stderr)
        job = fl.run(mesh, config, timeout=args.timeout, progress=args.progress)
        written = write_outputs(job, out)
    summary = {"job_id": job.id, "files": [str(p) for p in written]}
    print(json.dumps(summary))
    return EXIT_OK


def write_outputs(job: Any, out: Path) -> list[Path]:
    """results.json, results.vtu, and the S-parameters as Touchstone when the job has them."""
    written = []
    results_path = out / "results.json"
    job.download("json", results_path)
    written.append(results_path)
    written.append(job.save_vtu(out / "results.vtu"))
    raw = json.loads(results_path.read_text())
    if raw.get("s_parameters"):
        name = job.download_name("touchstone")
        path = out / Path(name).name
        job.download("touchstone", path)
        written.append(path)
    return written


def parse_sweep(text: str) -> tuple[str, Any]:
    """``path=v1,v2,…`` (these values) or ``path=from:to:steps[:log]`` (a range) → (path, spec)."""
    path, sep, spec = text.partition("=")
    path, spec = path.strip(), spec.strip()
    try:
        if not sep or not path or not spec:
            raise ValueError
        if ":" in spec:
            parts = spec.split(":")
            if len(parts) not in (3, 4) or (len(parts) == 4 and parts[3] not in ("linear", "log")):
                raise ValueError
            scale = parts[3] if len(parts) == 4 else "linear"
            return path, {
                "from": float(parts[0]),
                "to": float(parts[1]),
                "steps": int(parts[2]),
                "scale": scale,
            }
        return path, [float(v) for v in spec.split(",")]
    except ValueError:
        raise SystemExit(
            _usage(
                f"--sweep {text!r}: write path=v1,v2,… or path=from:to:steps[:log], e.g. frequency=9e9,10e9"
            )
        ) from None


def cmd_study(args: argparse.Namespace) -> int:
    model = Path(args.model)
    if not model.is_file():
        return _usage(f"no such file: {model}")
    config, mesh_options, units = load_setup(Path(args.config) if args.config else None, args.physics)
    parameters = dict(parse_sweep(s) for s in args.sweep or [])
    if not parameters:
        return _usage("say what to sweep: --sweep path=v1,v2,… (e.g. --sweep frequency=9e9,10e9,11e9)")
    with _client(args) as fl:
        upload = fl.upload(model, units=args.units or units)
        mesh = fl.mesh(upload, progress=args.progress, **mesh_options)
        print(f"Meshed: {len(mesh.tetrahedra)} tetrahedra, {len(mesh.vertices)} vertices", file=sys.stderr)
        study = fl.study(
            mesh,
            config,
            parameters=parameters,
            combine="zip" if args.zip else "grid",
            outputs=args.output,
            name=args.name or f"{model.name} study",
            wait=not args.no_wait,
            timeout=args.timeout,
            progress=args.progress,
        )
        summary: dict[str, Any] = {"study_id": study.id}
        if not args.no_wait:
            last = study.last_status or study.status()
            out = Path(args.out)
            out.write_text(study.csv())
            summary.update(status=last["status"], progress=last["progress"], file=str(out))
    print(json.dumps(summary))
    if args.no_wait:
        return EXIT_OK
    failed = summary["status"] != "completed" or summary["progress"]["failed"] > 0
    return EXIT_JOB_FAILED if failed else EXIT_OK


def cmd_status(args: argparse.Namespace) -> int:
    with _client(args) as fl:
        job = fl.job(args.job)
        if args.wait:
            try:
                job.wait(timeout=args.timeout, progress=args.progress)
            finally:
                status = job.last_status
        else:
            status = job.status()
    body = {k: v for k, v in (status or {}).items() if k != "results"}
    print(json.dumps(body, indent=2))
    state = body.get("status")
    return EXIT_JOB_FAILED if state in ("failed", "cancelled") else EXIT_OK


def cmd_download(args: argparse.Namespace) -> int:
    with _client(args) as fl:
        job = fl.job(args.job)
        if args.format == "vtu":
            target = Path(args.output or f"fea_results_{job.id}.vtu")
            job.save_vtu(target)
        else:
            target = Path(args.output or job.download_name(args.format))
            job.download(args.format, target)
    print(str(target))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--url", help="server address (default: $FIELDLINE_URL)")
    common.add_argument("--token", help="API token fl_… (default: $FIELDLINE_TOKEN)")
    bar = common.add_mutually_exclusive_group()
    bar.add_argument(
        "--progress", dest="progress", action="store_true", default=None, help="always show a progress bar"
    )
    bar.add_argument("--no-progress", dest="progress", action="store_false", help="never show a progress bar")

    parser = argparse.ArgumentParser(
        prog="fieldline",
        description="Run Fieldline finite element analyses from the command line (docs/api.md).",
        epilog="Exit codes: 0 done, 1 job failed, 2 usage, 3 token refused, 4 limit (402/413/429), 5 timed out, 6 server.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="{run,study,status,download}")

    run = sub.add_parser(
        "run",
        parents=[common],
        help="upload, mesh and run a model; write results.json, results.vtu and any Touchstone file",
        description="Upload a model, mesh it, run the analysis, wait, and write results.json, results.vtu "
        "and (for S-parameters) a Touchstone file into --out.",
    )
    run.add_argument("model", help="STEP/STP/STL/OBJ/ZIP file")
    run.add_argument(
        "--physics",
        help="analysis type: structural, thermal, vibration, em … (overrides analysisType in --config)",
    )
    run.add_argument(
        "--config", help='set-up JSON: an analysis config, or {"config": …, "mesh": …, "units": …}'
    )
    run.add_argument("--out", default="results", help="output directory (default: results/)")
    run.add_argument("--units", help="length unit of STL/OBJ files (mm, cm, m, in, um, ft)")
    run.add_argument(
        "--timeout", type=float, default=-1, help="seconds to wait for the analysis (default: 300)"
    )
    run.set_defaults(func=cmd_run)

    study = sub.add_parser(
        "study",
        parents=[common],
        help="upload and mesh a model, run a parameter sweep, write its table as CSV",
        description="Upload a model, mesh it, run a design study over the --sweep values (docs/studies.md), "
        "wait, and write its table (one row per point: parameters, status, outputs, error, job) as CSV. "
        "Exit code 1 when a point failed.",
    )
    study.add_argument("model", help="STEP/STP/STL/OBJ/ZIP file")
    study.add_argument("--physics", help="analysis type (overrides analysisType in --config)")
    study.add_argument(
        "--config", help='set-up JSON: an analysis config, or {"config": …, "mesh": …, "units": …}'
    )
    study.add_argument(
        "--sweep",
        action="append",
        metavar="PATH=VALUES",
        help="a config number and its values: path=v1,v2,… or path=from:to:steps[:log] (repeatable), "
        "e.g. 'forceLoads[0].force[2]=-100,-200,-400'",
    )
    study.add_argument(
        "--zip", action="store_true", help="pair the sweeps' values instead of every combination"
    )
    study.add_argument(
        "--output",
        action="append",
        required=True,
        metavar="NAME",
        help="a result to collect per point (repeatable): max_von_mises_Pa, capacitance_F, frequencies[0], "
        "|S21|@10e9 …",
    )
    study.add_argument("--name", help="the study's name (default: the model's)")
    study.add_argument("--out", default="study.csv", help="CSV file to write (default: study.csv)")
    study.add_argument("--units", help="length unit of STL/OBJ files (mm, cm, m, in, um, ft)")
    study.add_argument("--timeout", type=float, default=None, help="seconds to wait (default: no limit)")
    study.add_argument("--no-wait", action="store_true", help="create the study, print its id and return")
    study.set_defaults(func=cmd_study)

    status = sub.add_parser(
        "status", parents=[common], help="a job's status", description="Print a job's status as JSON."
    )
    status.add_argument("job", help="job id")
    status.add_argument("--wait", action="store_true", help="wait until the job ends")
    status.add_argument(
        "--timeout", type=float, default=-1, help="seconds to wait with --wait (default: 300)"
    )
    status.set_defaults(func=cmd_status)

    download = sub.add_parser(
        "download", parents=[common], help="download a job's results", description="Download a job's results."
    )
    download.add_argument("job", help="job id")
    download.add_argument("--format", choices=("json", "touchstone", "csv", "vtu"), default="json")
    download.add_argument("-o", "--output", help="file to write (default: the server's file name)")
    download.set_defaults(func=cmd_download)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except FieldlineError as err:
        print(f"fieldline: {err}", file=sys.stderr)
        return exit_code_for(err)
    except SystemExit as exit_:
        return int(exit_.code or 0) if isinstance(exit_.code, int) else EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
