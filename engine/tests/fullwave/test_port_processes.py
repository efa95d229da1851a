"""A frequency's port solves shared by forked processes (em/fullwave/port_processes.py, issue 19).

The forked path must give the same S as one process solving the ports in turn (the same arithmetic), keep
every port's GMRES record in order, and turn a child's failure into the parent's: a stalled solve keeps its
message, a child killed by the kernel reads as out of memory, and no child outlives the call.
"""

import os
import signal
from pathlib import Path

import ngsolve as ng
import numpy as np
import pytest

from fieldline_engine.em.fullwave import port_processes
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.fullwave.solver import FullwaveSolver
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.errors import EngineError
from fieldline_engine.testing.rf_meshes import waveguide_mesh


@pytest.fixture
def two_threads():
    before = port_processes.configured_threads()
    ng.SetNumThreads(2)
    yield
    ng.SetNumThreads(before)


@pytest.fixture(scope="module")
def mesh():
    return waveguide_mesh(0.05, maxh=0.008)


def wr90(mesh, **kw) -> FullwaveSolver:
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TE10", order=2) for k in range(2)]
    return FullwaveSolver(mesh, uniform_media(), 2, "default", ports, linear_solver="gmres-bddc", **kw)


def test_forked_ports_give_the_same_s_as_one_process(mesh, two_threads, monkeypatch):
    monkeypatch.setattr(port_processes, "MIN_DOFS", 0)  # the test mesh is far below the real threshold
    monkeypatch.setenv("FIELDLINE_PORT_PROCESSES", "0")
    serial = wr90(mesh)
    s_serial = serial.solve(10e9).s
    monkeypatch.delenv("FIELDLINE_PORT_PROCESSES")
    forked = wr90(mesh)
    sol = forked.solve(10e9)
    diff = float(np.abs(sol.s - s_serial).max())
    print(f"WR-90, {forked.ndof} unknowns, ports on 2 processes: max |ΔS| vs one process = {diff:.1e}")
    assert diff < 1e-12
    info = forked.describe_linear_solver()
    assert [(r["port"], r["iterations"]) for r in info["iterative_solves"]] == [
        (r["port"], r["iterations"]) for r in serial.describe_linear_solver()["iterative_solves"]
    ]
    (shared,) = info["port_processes"]
    (child,) = shared["children"]
    assert child["ports"] == [2] and child["cpu_s"] > 0 and child["peak_resident_mb"] > 0
    assert "port_processes" not in serial.describe_linear_solver()
    assert len(sol.excitations) == 2  # the field frequency's fields come back from the child too
    assert port_processes.configured_threads() == 2  # restored after the solve


def test_one_thread_or_small_systems_stay_in_one_process(two_threads):
    assert port_processes.port_processes(2, 10**6) == 2
    assert port_processes.port_processes(2, 1_000) == 1
    assert port_processes.port_processes(1, 10**6) == 1
    assert port_processes.port_processes(3, 10**6, threads=1) == 1
    assert port_processes.deal([0, 1, 2], 2) == [[0, 2], [1]]


def _records():
    return []


def test_a_childs_stalled_solve_is_raised_by_the_parent(two_threads, no_children_left):
    def solve_one(p):
        if p == 1:
            raise EngineError("solver_not_converged", "port 2 did not converge")
        return p

    with pytest.raises(EngineError, match="port 2 did not converge") as err:
        port_processes.solve_shared([0, 1], 2, solve_one, _records())
    assert err.value.code == "solver_not_converged"
    assert no_children_left()


def test_a_killed_child_reads_as_out_of_memory(two_threads, no_children_left):
    def solve_one(p):
        if p == 1:
            os.kill(os.getpid(), signal.SIGKILL)
        return p

    with pytest.raises(MemoryError, match="port 2 was killed"):
        port_processes.solve_shared([0, 1], 2, solve_one, _records())
    assert no_children_left()


def test_a_parent_failure_stops_the_children(two_threads, no_children_left):
    def solve_one(p):
        if p == 0:
            raise EngineError("solver_not_converged", "port 1 did not converge")
        signal.pause()  # would wait forever if the parent did not kill it

    with pytest.raises(EngineError, match="port 1"):
        port_processes.solve_shared([0, 1], 2, solve_one, _records())
    assert no_children_left()


def _children() -> set[int]:
    """This process's children, running or not yet reaped (Linux /proc)."""
    pids: set[int] = set()
    for task in Path("/proc/self/task").iterdir():
        pids.update(int(pid) for pid in (task / "children").read_text().split())
    return pids


@pytest.fixture
def no_children_left():
    """After the call, no child it started is left: the children the process had before (multiprocessing's
    resource tracker, started once an isolated CAD import ran earlier in the session) do not count."""
    before = _children()
    yield lambda: _children() <= before
