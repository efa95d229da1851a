"""Reading a job's input and writing its results inside the job directory."""

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from fieldline_engine.errors import InvalidInput


def read_job(job_dir: Path) -> dict[str, Any]:
    try:
        data = json.loads((job_dir / "job.json").read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"job.json is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise InvalidInput("job.json must hold an object")
    return data


# Fields another job computed that this run takes (fieldsFrom): the worker reads the source's stored results
# and writes the chosen fields here beside job.json (server/src/jobs/fields-from.ts).
FIELDS_FROM_FILE = "fields_from.json"


def read_fields_from(job_dir: Path) -> dict[str, Any] | None:
    path = job_dir / FIELDS_FROM_FILE
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{FIELDS_FROM_FILE} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise InvalidInput(f"{FIELDS_FROM_FILE} must hold an object")
    return data


def _json_default(value: Any) -> Any:
    """numpy arrays and scalars inside results (the named fields' data) as plain JSON values."""
    if isinstance(value, np.ndarray | np.generic):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def write_json_atomic(path: Path, payload: Any) -> None:
    """Writes via a temporary file and rename, so a reader never sees half a results file. json.dumps, not
    json.dump: only the one-shot call uses the C encoder (json.dump streams through the pure-Python one, 6 of
    the 62 CPU-s of a 0.21 M-DOF modal run)."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    text = json.dumps(payload, separators=(",", ":"), allow_nan=False, default=_json_default)
    tmp.write_text(text, encoding="utf-8")
    del text
    os.replace(tmp, path)


def write_results(job_dir: Path, results: dict[str, Any]) -> Path:
    """results.json, plus the binary side files a solver put under `_side_files` (name → bytes)."""
    for name, data in (results.pop("_side_files", None) or {}).items():
        tmp = job_dir / (name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, job_dir / name)
    path = job_dir / "results.json"
    write_json_atomic(path, results)
    return path
