"""CPU per standby spare, to ready and exit without a job: a full standby process (`python -m fieldline_engine
standby`, ENGINE_FORK_SERVER=0) against a spare forked by the fork server, through the compiled launcher
(engine/launcher/spare_launcher.c, the default once built) and through the Python one (spare_launcher.py).

    .venv/bin/python bench/studies/spare_cpu.py [N]     # from the repository root; N spares each (10)
"""

import hashlib
import json
import os
import resource
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


def native_launcher() -> Path | None:
    """The compiled launcher the server would use (server/src/engine/spare-launcher.ts), if built."""
    digest = hashlib.sha256(
        (ENGINE / "launcher" / "spare_launcher.c").read_bytes()
    ).hexdigest()[:16]
    binary = ENGINE / "launcher" / "build" / f"spare-launcher-{digest}"
    return binary if binary.exists() else None


def own_and_children_cpu(pid: int) -> tuple[float, float]:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick, (
        int(fields[13]) + int(fields[14])
    ) / tick


def spare_cpu(args: list[str]) -> float:
    """CPU of one spare the way the server starts it (stdin at end of file: it prints ready and exits)."""
    before = resource.getrusage(
        resource.RUSAGE_CHILDREN
    )  # µs, not the 10 ms ticks of os.times()
    proc = subprocess.run(
        args,
        check=True,
        cwd=ENGINE,
        env=ENV,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert json.loads(proc.stdout.splitlines()[0]) == {"event": "ready"}, proc
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


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
    ready_cpu = own_and_children_cpu(server.pid)[0]
    launchers = {"python": [str(ENGINE / "fieldline_engine" / "spare_launcher.py")]}
    native = native_launcher()
    if native:
        launchers["compiled"] = [str(native)]
    print(
        f"full standby process: {sum(standby) / n:.3f} CPU-s (min {min(standby):.3f})"
    )
    for name, program in launchers.items():
        args = (
            [
                *program,
                socket_path,
                "--",
                sys.executable,
                "-m",
                "fieldline_engine",
                "standby",
            ]
            if name == "compiled"
            else [sys.executable, "-S", "-I", *program, socket_path]
        )
        own_before, children_before = own_and_children_cpu(server.pid)
        cpu = [spare_cpu(args) for _ in range(n)]
        own_after, children_after = own_and_children_cpu(server.pid)
        print(
            f"forked spare, {name} launcher: launcher {sum(cpu) / n * 1000:.1f} ms "
            f"(max {max(cpu) * 1000:.0f}) + forked child "
            f"{(children_after - children_before) / n * 1000:.1f} ms + fork server's side "
            f"{(own_after - own_before) / n * 1000:.1f} ms CPU"
        )
    if not native:
        print("compiled launcher: not built (node scripts/build-launcher.mjs)")
    server.kill()
    server.wait()
    print(
        f"fork server to ready: {ready_cpu:.3f} CPU-s, once per server; load {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
