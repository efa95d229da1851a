"""The engine's stdout protocol (DESIGN.md §3): one JSON object per line.

progress: {"event":"progress","percent":42,"message":"Assembling"}
final:    {"event":"done", "result": {...}} or {"event":"error","code":...,"message":...}
Anything else a library prints goes to stderr, so stdout stays machine-readable.
"""

import json
import sys
import time
from typing import Any

_out = sys.stdout
# With `verbose` on, every progress and log line is also kept here (with the seconds since the start),
# and the results carry it as `solver_info.log`: the server keeps only the latest progress line.
_journal: list[str] | None = None
_journal_start = 0.0


def start_journal() -> None:
    global _journal, _journal_start
    _journal, _journal_start = [], time.perf_counter()


def journal() -> list[str]:
    return list(_journal or [])


def _record(obj: dict[str, Any]) -> None:
    if _journal is None or obj.get("event") not in ("progress", "log"):
        return
    stamp = f"{time.perf_counter() - _journal_start:8.2f} s"
    if obj["event"] == "progress":
        _journal.append(f"{stamp} {obj['percent']:5.1f}% {obj.get('message', '')}".rstrip())
    else:
        _journal.append(f"{stamp} [{obj.get('level', 'info')}] {obj['message']}")


def _emit(obj: dict[str, Any]) -> None:
    _record(obj)
    _out.write(json.dumps(obj, separators=(",", ":")) + "\n")
    _out.flush()


def progress(percent: float, message: str | None = None) -> None:
    event: dict[str, Any] = {"event": "progress", "percent": round(max(0.0, min(100.0, percent)), 1)}
    if message:
        event["message"] = message
    _emit(event)


def log(message: str, level: str = "info") -> None:
    _emit({"event": "log", "level": level, "message": message})


def done(result: dict[str, Any] | None = None, message: str | None = None) -> None:
    event: dict[str, Any] = {"event": "done", "result": result or {}}
    if message:
        event["message"] = message
    _emit(event)


def error(code: str, message: str) -> None:
    _emit({"event": "error", "code": code, "message": message})


def ready() -> None:
    """A standby engine process has warmed up and waits for its job on stdin (standby.py)."""
    _emit({"event": "ready"})


def silence() -> None:
    """No protocol lines from this process (an MPI rank other than 0: rank 0 reports for the job)."""
    import os

    global _out
    _out = open(os.devnull, "w")  # noqa: SIM115 - kept open for the process's life


def redirect_library_output() -> None:
    """Point fd 1 at stderr for C/C++ libraries, keeping a private handle for protocol lines."""
    import os

    global _out
    protocol_fd = os.dup(1)
    os.dup2(2, 1)
    _out = os.fdopen(protocol_fd, "w", buffering=1)
    sys.stdout = sys.stderr


def rebind_after_fork() -> None:
    """A spare forked from the fork server (forkserver.py) has its job's pipes on fds 0–2 now: drop the fork
    server's own protocol stream and speak on the new fd 1, library output again going to stderr."""
    global _out
    if _out is not sys.__stdout__:
        _out.close()
    redirect_library_output()


class ProgressSpan:
    """Maps a phase's own 0…1 progress onto a slice [start, end] of the job's percent."""

    def __init__(self, start: float = 0.0, end: float = 100.0, silent: bool = False):
        self.start, self.end, self.silent = start, end, silent

    def __call__(self, fraction: float, message: str | None = None) -> None:
        if not self.silent:
            progress(self.start + (self.end - self.start) * max(0.0, min(1.0, fraction)), message)

    def sub(self, lo: float, hi: float) -> "ProgressSpan":
        width = self.end - self.start
        return ProgressSpan(self.start + width * lo, self.start + width * hi, self.silent)


SILENT = ProgressSpan(silent=True)
