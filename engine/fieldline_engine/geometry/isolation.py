"""Runs one mesher attempt in a fresh child process, so a crash in native code (a segfault in
OpenCascade or a mesher) fails that attempt only and the next mesher still gets its turn.

The child is spawned, not forked: a forked child would inherit the parent's thread pools (NGSolve's
task manager, OpenBLAS) in a state whose threads do not exist, and could wait on them forever.
The function must therefore be defined at module level and its arguments picklable.
"""

import multiprocessing
import os
import pickle
import traceback
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fieldline_engine.errors import EngineError


@dataclass
class AttemptResult:
    ok: bool
    value: Any = None  # the function's return value when ok; failure details otherwise
    code: str = ""
    message: str = ""


def _child(fn, args: tuple, out: str) -> None:
    try:
        result = AttemptResult(True, fn(*args))
    except EngineError as exc:
        result = AttemptResult(False, getattr(exc, "details", None), exc.code, exc.message)
    except MemoryError:
        result = AttemptResult(False, None, "memory_limit", "ran out of memory")
    except Exception as exc:  # noqa: BLE001 - every failure of an attempt is reported, not raised
        traceback.print_exc()
        result = AttemptResult(False, None, "mesher_error", f"{type(exc).__name__}: {exc}")
    with open(out, "wb") as fh:
        pickle.dump(result, fh, protocol=pickle.HIGHEST_PROTOCOL)


def run_isolated(fn, *args: Any, workdir: Path) -> AttemptResult:
    out = workdir / f".attempt-{uuid.uuid4().hex}.pkl"
    proc = multiprocessing.get_context("spawn").Process(target=_child, args=(fn, args, str(out)))
    proc.start()
    proc.join()
    if not out.exists():
        code = proc.exitcode
        how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        return AttemptResult(False, None, "mesher_crashed", f"the mesher process crashed ({how})")
    try:
        with out.open("rb") as fh:
            return pickle.load(fh)
    finally:
        os.unlink(out)
