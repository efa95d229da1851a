"""A B pairs of a job on a standby engine against CalculiX: the path the server takes by default.

The server keeps an engine process started and warmed up ahead of its job (`python -m fieldline_engine
standby`, ENGINE_STANDBY, docs/compute.md): imports and first-use costs are paid before the job arrives. This
starts one per pair, waits for its {"event":"ready"}, then hands it the job on stdin and measures from the
handover to the process's exit: wall seconds, and CPU seconds (user + system of the whole process, from
wait4, minus what the scheduler said it had run at the handover: process_clock.py). Peak RSS is the process's
whole life (warm-up included). CalculiX runs as a whole process (wait4), as in pairs.py.

Usage:
  .venv/bin/python bench/coupled/standby_pairs.py OUT/fieldline OUT/ccx [PAIRS]
  # this engine against another revision's, both on standby engines (the job folder may be the same):
  git archive REV engine | tar -x -C /tmp/before
  .venv/bin/python bench/coupled/standby_pairs.py OUT/fieldline OUT/fieldline [PAIRS] --b-engine /tmp/before/engine
  # A on another checkout's engine too (a snapshot, while this one's changes): --a-engine /tmp/after/engine
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from ab_pairs import ab_pairs
from cylinder import engine_env
from pairs import command
from process_clock import cpu_so_far, timed


def standby_job(folder: Path, engine_dir: Path | None = None) -> dict:
    env = engine_env()
    if engine_dir is not None:
        env["PYTHONPATH"] = str(engine_dir)
    proc = subprocess.Popen(
        [sys.executable, "-m", "fieldline_engine", "standby"],
        cwd=folder,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    for line in proc.stdout:
        if json.loads(line).get("event") == "ready":
            break
    else:
        raise SystemExit("the standby engine exited before it was ready")
    before = cpu_so_far(proc.pid)
    started = time.perf_counter()
    request = {"command": "solve", "job": str(folder.resolve()), "env": {}}
    proc.stdin.write(json.dumps(request) + "\n")
    proc.stdin.flush()
    events = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0 or '"event":"done"' not in events:
        raise SystemExit(f"standby job failed in {folder}: {events[-2000:]}")
    return {
        "seconds": round(wall, 4),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime - before, 4),
        "peak_mb": round(usage.ru_maxrss / 1024, 1),
    }


def pairs(
    a: Path,
    b: Path,
    count: int,
    b_engine: Path | None = None,
    a_engine: Path | None = None,
) -> dict:
    env = engine_env()
    run_a = lambda: standby_job(a, a_engine)
    if b_engine is not None:
        run_b = lambda: standby_job(b, b_engine)
        label_b = f"{b} on a standby engine of {b_engine}"
    else:
        run_b = lambda: timed(command(b), b, env)
        label_b = str(b)
    out = ab_pairs(run_a, run_b, count, label_a="A (standby)")
    label_a = f"{a} on a standby engine" + (f" of {a_engine}" if a_engine else "")
    return {"A": label_a, "B": label_b, **out}


if __name__ == "__main__":
    args = sys.argv[1:]
    engines: dict[str, Path | None] = {"--a-engine": None, "--b-engine": None}
    for flag in engines:
        if flag in args:
            at = args.index(flag)
            engines[flag] = Path(args[at + 1]).resolve()
            del args[at : at + 2]
    if len(args) < 2:
        raise SystemExit(__doc__)
    result = pairs(
        Path(args[0]),
        Path(args[1]),
        int(args[2]) if len(args) > 2 else 5,
        engines["--b-engine"],
        engines["--a-engine"],
    )
    print(json.dumps(result, indent=2))
