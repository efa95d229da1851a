"""The fork server (forkserver.py) and its spare launchers (the compiled launcher/spare_launcher.c and
spare_launcher.py): a spare forked from one warmed-up process runs its job exactly as a standby process and a
cold start do, with the job's memory limit, environment and title; it costs milliseconds of CPU; it dies with
its launcher; a launcher ends with its child's exit code or signal; a launcher whose fork server is gone
becomes a full standby process; the fork server forks with a single thread. The launcher's own behaviour is
checked for both launchers (the `launcher` parameter)."""

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_standby import resistor_job, start_standby, wait_ready

ENGINE_DIR = Path(__file__).resolve().parents[1]
TESTS_DIR = Path(__file__).resolve().parent
LAUNCHER = ENGINE_DIR / "fieldline_engine" / "spare_launcher.py"
NATIVE_SOURCE = ENGINE_DIR / "launcher" / "spare_launcher.c"
ENV = {
    **os.environ,
    "PYTHONPATH": f"{ENGINE_DIR}:{TESTS_DIR}",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
}


def start_fork_server(socket_path: Path) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "fieldline_engine", "forkserver", "--socket", str(socket_path)],
        cwd=ENGINE_DIR,
        env=ENV,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert json.loads(proc.stdout.readline()) == {"event": "ready"}
    return proc


@pytest.fixture(scope="module")
def fork_server(tmp_path_factory):
    socket_path = tmp_path_factory.mktemp("fork") / "s"
    proc = start_fork_server(socket_path)
    yield proc, str(socket_path)
    proc.kill()
    proc.wait()


def native_launcher() -> Path | None:
    """The compiled launcher as the server finds it (server/src/engine/spare-launcher.ts), built by
    scripts/build-launcher.mjs (`npm test` runs it first); None where no C compiler built it."""
    digest = hashlib.sha256(NATIVE_SOURCE.read_bytes()).hexdigest()[:16]
    binary = ENGINE_DIR / "launcher" / "build" / f"spare-launcher-{digest}"
    if not binary.exists():
        subprocess.run(["node", str(ENGINE_DIR.parent / "scripts" / "build-launcher.mjs")], check=False)
    return binary if binary.exists() else None


@pytest.fixture(params=["native", "python"])
def launcher(request) -> str:
    if request.param == "native" and native_launcher() is None:
        pytest.skip("no C compiler: the server uses the Python launcher")
    return request.param


def launch(socket_path: str, launcher: str = "native") -> subprocess.Popen:
    """As the server starts a spare: its own process group, pipes on 0–2, the engine dir as cwd. The compiled
    launcher (when built) gets the server's fallback command, a full standby process."""
    native = native_launcher() if launcher == "native" else None
    args = (
        [str(native), socket_path, "--", sys.executable, "-m", "fieldline_engine", "standby"]
        if native
        else [sys.executable, "-S", "-I", str(LAUNCHER), socket_path]
    )
    return subprocess.Popen(
        args,
        cwd=ENGINE_DIR,
        env=ENV,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def send(proc: subprocess.Popen, request: dict) -> tuple[list[dict], int]:
    out, err = proc.communicate(json.dumps(request) + "\n", timeout=300)
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert events, err[-2000:]
    return events, proc.returncode


def children_of(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a_forked_spare_gives_the_same_results_as_a_cold_start_and_a_standby_process(
    engine, fork_server, tmp_path
):
    _server, socket_path = fork_server
    cold_dir = resistor_job(tmp_path / "cold")
    standby_dir, forked_dir = resistor_job(tmp_path / "standby"), resistor_job(tmp_path / "forked")
    assert engine("solve", cold_dir)[-1]["event"] == "done"
    standby = start_standby()
    wait_ready(standby)
    request = {"command": "solve", "memoryLimitMb": 4096}
    events, code = send(standby, {**request, "job": str(standby_dir)})
    assert code == 0 and events[-1]["event"] == "done", events[-1]
    spare = launch(socket_path)
    events, code = send(spare, {**request, "job": str(forked_dir)})
    assert code == 0 and events[0] == {"event": "ready"} and events[-1]["event"] == "done", events
    quantities = {
        name: json.loads((tmp_path / name / "results.json").read_text())["quantities"]
        for name in ("cold", "standby", "forked")
    }
    print({name: q["resistance_ohm"] for name, q in quantities.items()})
    for name in ("standby", "forked"):
        assert quantities[name]["resistance_ohm"] == pytest.approx(
            quantities["cold"]["resistance_ohm"], rel=1e-12
        )
        assert quantities[name]["terminal_currents_A"] == pytest.approx(
            quantities["cold"]["terminal_currents_A"], rel=1e-12
        )


def test_a_forked_spare_gets_its_memory_limit_environment_and_title(fork_server, tmp_path):
    _server, socket_path = fork_server
    request = {
        "command": "health",
        "job": str(tmp_path),
        "memoryLimitMb": 3000,
        "env": {"FIELDLINE_ENGINE_PLUGIN": "standby_probe", "STANDBY_MARKER": "job-43"},
    }
    events, code = send(launch(socket_path), request)
    assert code == 0 and events[-1]["event"] == "done", events[-1]
    logs = [e["message"] for e in events if e["event"] == "log"]
    assert logs[0] == "probe command=health rlimit_as_mb=3000 marker=job-43", logs
    assert logs[1].endswith(f"python -m fieldline_engine health --job {tmp_path}"), logs
    assert logs[2] == "families not imported: none", logs


def test_a_memory_limit_job_on_a_forked_spare_fails_as_memory_limit(fork_server, tmp_path):
    _server, socket_path = fork_server
    job = tmp_path / "memory"
    job.mkdir()
    (job / "job.json").write_text(json.dumps({"test_hooks": {"allocate_mb": 3000}}))
    request = {
        "command": "solve",
        "job": str(job),
        "memoryLimitMb": 1536,
        "env": {"FIELDLINE_ENGINE_PLUGIN": "fieldline_engine.testing.hooks"},
    }
    events, code = send(launch(socket_path), request)
    assert code == 1
    assert events[-1]["event"] == "error" and events[-1]["code"] == "memory_limit", events[-1]


def test_the_launcher_ends_with_the_childs_exit_code_and_signal(fork_server, launcher):
    _server, socket_path = fork_server
    events, code = send(launch(socket_path, launcher), {"command": "rm", "job": "/"})
    assert code == 2 and events[-1]["code"] == "usage", events
    spare = launch(socket_path, launcher)
    assert json.loads(spare.stdout.readline()) == {"event": "ready"}
    (child,) = [pid for pid in children_of(_server.pid) if alive(pid)]
    os.kill(child, signal.SIGSEGV)
    assert spare.wait(timeout=10) == -signal.SIGSEGV


def test_killing_the_launchers_group_kills_its_forked_child_within_a_second(fork_server, tmp_path, launcher):
    server, socket_path = fork_server
    job = tmp_path / "sleepy"
    job.mkdir()
    (job / "job.json").write_text(json.dumps({"test_hooks": {"sleep_seconds": 60}}))
    spare = launch(socket_path, launcher)
    spare.stdin.write(
        json.dumps(
            {
                "command": "solve",
                "job": str(job),
                "env": {"FIELDLINE_ENGINE_PLUGIN": "fieldline_engine.testing.hooks"},
            }
        )
        + "\n"
    )
    spare.stdin.flush()
    assert json.loads(spare.stdout.readline()) == {"event": "ready"}
    assert json.loads(spare.stdout.readline())["event"] == "progress"
    (child,) = [pid for pid in children_of(server.pid) if alive(pid)]
    title = Path(f"/proc/{child}/cmdline").read_text().rstrip("\0 ")
    assert title.endswith(f"fieldline_engine solve --job {job}"), title  # retitled as a cold start of it
    os.killpg(spare.pid, signal.SIGKILL)  # what the server does on timeout or cancel
    assert spare.wait(timeout=5) == -signal.SIGKILL  # the server sees the kill it sent
    started = time.monotonic()
    while alive(child) and time.monotonic() - started < 5:
        time.sleep(0.02)
    print(f"forked child gone {time.monotonic() - started:.3f} s after its launcher was killed")
    assert not alive(child)
    assert time.monotonic() - started < 1.0


def test_the_fork_server_forks_with_one_thread_and_a_spare_costs_milliseconds(fork_server, launcher):
    server, socket_path = fork_server
    assert os.listdir(f"/proc/{server.pid}/task") == [str(server.pid)]
    before = os.times()
    spare = launch(socket_path, launcher)
    assert json.loads(spare.stdout.readline()) == {"event": "ready"}
    (child,) = [pid for pid in children_of(server.pid) if alive(pid)]
    child_cpu = cpu_seconds(child)
    spare.communicate("", timeout=30)
    assert spare.returncode == 0
    after = os.times()
    launcher_cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    print(
        f"spare to ready: {launcher} launcher {launcher_cpu * 1000:.0f} ms CPU, forked child {child_cpu * 1000:.0f} ms CPU"
    )
    assert launcher_cpu + child_cpu < 0.2  # a standby process: ≈ 1 CPU-second to ready


def test_a_launcher_without_a_fork_server_becomes_a_standby_process(tmp_path, launcher):
    spare = launch(str(tmp_path / "no-such-socket"), launcher)
    events, code = send(spare, {"command": "rm", "job": "/"})
    assert code == 2
    assert events == [
        {"event": "ready"},
        {"event": "error", "code": "usage", "message": "standby: bad job request: unknown command 'rm'"},
    ]


def test_a_fork_server_whose_server_is_gone_exits_before_warming_up_and_removes_its_directory(tmp_path):
    # The server was SIGKILLed between making the fork server's directory and the fork server's start
    # (how the fault suites left empty /tmp/fieldline-fork-* directories behind).
    directory = tmp_path / "fork"
    directory.mkdir()
    proc = subprocess.run(
        [sys.executable, "-m", "fieldline_engine", "forkserver", "--socket", str(directory / "s")],
        cwd=ENGINE_DIR,
        env={**ENV, "FIELDLINE_PARENT_PID": "1"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 137 and proc.stdout == ""
    assert not directory.exists()


def test_a_fork_server_that_fails_while_its_server_lives_leaves_the_servers_directory(tmp_path):
    # The server restarts a failed fork server in the same directory: it must still be there.
    directory = tmp_path / "fork"
    directory.mkdir()
    (directory / "s").mkdir()  # binding the socket fails: the path is taken
    shell = subprocess.run(
        [
            "sh",
            "-c",
            f"FIELDLINE_PARENT_PID=$$ {sys.executable} -m fieldline_engine forkserver --socket {directory / 's'}",
        ],
        cwd=ENGINE_DIR,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shell.returncode != 0 and "Address already in use" in shell.stderr
    assert directory.is_dir()


def sleepy_job(directory: Path, seconds: float) -> dict:
    directory.mkdir()
    (directory / "job.json").write_text(json.dumps({"test_hooks": {"sleep_seconds": seconds}}))
    return {
        "command": "solve",
        "job": str(directory),
        "env": {"FIELDLINE_ENGINE_PLUGIN": "fieldline_engine.testing.hooks"},
    }


def test_spares_outlive_their_fork_server_and_still_die_with_their_launcher(tmp_path, launcher):
    server = start_fork_server(tmp_path / "s")
    running, idle, doomed = (launch(str(tmp_path / "s"), launcher) for _ in range(3))
    for spare in (running, idle, doomed):
        assert json.loads(spare.stdout.readline()) == {"event": "ready"}
    children = sorted(pid for pid in children_of(server.pid) if alive(pid))
    assert len(children) == 3
    running.stdin.write(json.dumps(sleepy_job(tmp_path / "running", 1.5)) + "\n")
    running.stdin.flush()
    assert json.loads(running.stdout.readline())["event"] == "progress"
    server.kill()
    server.wait()
    # The job under way runs to its end; without its fork server the launcher cannot learn the exit status,
    # so it exits 1 and the server judges the job by its final line.
    out, _err = running.communicate(timeout=60)
    assert json.loads(out.splitlines()[-1])["event"] == "error"  # the hook's job has no model: invalid input
    assert json.loads(out.splitlines()[-1])["code"] == "invalid_input"
    assert running.returncode == 1
    # An idle spare still takes a job.
    events, _code = send(idle, {"command": "health", "job": None})
    assert events[-1]["event"] == "done", events
    # A launcher killed now (no fork server to kill its child's group): the child sees its launcher end.
    (left,) = [pid for pid in children if alive(pid)]
    os.killpg(doomed.pid, signal.SIGKILL)
    doomed.wait(timeout=5)
    started = time.monotonic()
    while alive(left) and time.monotonic() - started < 5:
        time.sleep(0.02)
    print(f"orphaned spare gone {time.monotonic() - started:.3f} s after its launcher was killed")
    assert time.monotonic() - started < 1.0


def test_a_fork_server_whose_server_dies_kills_its_spares_and_removes_its_socket(tmp_path, launcher):
    directory = tmp_path / "fork"
    directory.mkdir()
    socket_path = directory / "s"
    # A stand-in for the server: a shell that starts the fork server with its own pid to watch.
    shell = subprocess.Popen(
        [
            "sh",
            "-c",
            f"FIELDLINE_PARENT_PID=$$ {sys.executable} -m fieldline_engine forkserver --socket {socket_path} & wait",
        ],
        cwd=ENGINE_DIR,
        env=ENV,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert json.loads(shell.stdout.readline()) == {"event": "ready"}
    spare = launch(str(socket_path), launcher)
    assert json.loads(spare.stdout.readline()) == {"event": "ready"}
    shell.kill()
    shell.wait()
    spare.wait(timeout=10)  # its forked child was killed with the fork server's exit
    started = time.monotonic()
    while directory.exists() and time.monotonic() - started < 5:
        time.sleep(0.05)
    assert not directory.exists()
