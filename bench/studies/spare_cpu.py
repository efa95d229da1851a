"""CPU per standby spare, to ready and exit without a job: a full standby process (`python -m fieldline_engine
standby`, ENGINE_FORK_SERVER=0) against a spare forked by the fork server (spare_launcher.py + fork).

    .venv/bin/python bench/studies/spare_cpu.py [N]     # from the repository root; N spares each (10)
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
ENV = {
    **os.environ,
    "PYTHONPATH": str(ENGINE),
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
}


def own_and_children_cpu(pid: int) -> tuple[float, float]:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick, (
        int(fields[13]) + int(fields[14])
    ) / tick


def spare_cpu(args: list[str]) -> float:
    """CPU of one spare the way the server starts it (stdin at end of file: it prints ready and exits)."""
    before = os.times()
    proc = subprocess.run(
        args,
        check=True,
        cwd=ENGINE,
        env=ENV,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    after = os.times()
    assert json.loads(proc.stdout.splitlines()[0]) == {"event": "ready"}, proc
    return (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def main(n: int) -> None:
    standby = [
        spare_cpu([sys.executable, "-m", "fieldline_engine", "standby"])
        for _ in range(n)
    ]
    socket_path = os.path.join(tempfile.mkdtemp(), "s")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "fieldline_engine",
            "forkserver",
            "--socket",
            socket_path,
        ],
        cwd=ENGINE,
        env=ENV,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    )
    server.stdout.readline()
    own_before, children_before = own_and_children_cpu(server.pid)
    launcher = str(ENGINE / "fieldline_engine" / "spare_launcher.py")
    launchers = [
        spare_cpu([sys.executable, "-S", "-I", launcher, socket_path]) for _ in range(n)
    ]
    own_after, children_after = own_and_children_cpu(server.pid)
    server.kill()
    server.wait()
    print(
        f"full standby process: {sum(standby) / n:.3f} CPU-s (min {min(standby):.3f})"
    )
    print(
        f"forked spare: launcher {sum(launchers) / n * 1000:.1f} ms + forked child "
        f"{(children_after - children_before) / n * 1000:.1f} ms + fork server's side "
        f"{(own_after - own_before) / n * 1000:.1f} ms CPU"
    )
    print(
        f"fork server to ready: {own_before:.3f} CPU-s, once per server; load {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
