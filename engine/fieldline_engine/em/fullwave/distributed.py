"""A uniform sweep's independent solves shared by the MPI ranks of one job (docs/distributed.md).

Every rank has built the same mesh, ports and operator; each assembles and solves (its own factorization or
BDDC preconditioner) only the (frequency, driven port) solves dealt to it. Whole frequencies are dealt while
there are at least as many as ranks, so each frequency is assembled once; with fewer frequencies than ranks
the ports of a frequency are dealt out as well. Rank 0 gets the field frequency, gathers everything and
writes the results exactly as a one-process run; what a rank sends is a frequency's S (and line impedances)
when it solved the whole frequency, or its ports' solution vectors when the frequency was split.

This is not a domain decomposition: one system is never split across ranks, so each rank needs the memory
of a one-process run (no PETSc wheel exists for this stack; see the docs).
"""

from typing import Any

import numpy as np

from fieldline_engine import protocol
from fieldline_engine.core import ranks
from fieldline_engine.em.fullwave.iterative import SolveRecord
from fieldline_engine.em.fullwave.solver import FrequencySolution, FullwaveSolver, PortSolve
from fieldline_engine.errors import EngineError

Task = tuple[float, tuple[int, ...]]  # a frequency and the ports driven at it


def deal_tasks(freqs: list[float], ports: int, size: int) -> list[list[Task]]:
    """Per rank, its tasks. `freqs[0]` (the field frequency) always goes to rank 0 whole when frequencies
    are dealt, and its first port when ports are."""
    if len(freqs) >= size or ports <= 1:
        return [[(f, tuple(range(ports))) for f in freqs[r::size]] for r in range(size)]
    pairs = [(f, p) for f in freqs for p in range(ports)]
    out: list[list[Task]] = []
    for r in range(size):
        mine: dict[float, list[int]] = {}
        for f, p in pairs[r::size]:
            mine.setdefault(f, []).append(p)
        out.append([(f, tuple(ps)) for f, ps in mine.items()])
    return out


def independent_solves(freqs: int, ports: int) -> int:
    return max(1, freqs) * max(1, ports)


def _run_share(solver, tasks, field_freq, renorm, point) -> dict[str, Any]:
    """This rank's tasks: whole frequencies become (s, lines, port_props); split ones PortSolve pieces."""
    whole: dict[float, tuple[np.ndarray, list, list]] = {}
    pieces: dict[float, list[PortSolve]] = {}
    field_solution = None
    n = len(solver.ports)
    for i, (f, ports) in enumerate(tasks):
        if len(ports) == n:
            sol, lines = point(solver, f, renorm, keep=f == field_freq)
            whole[f] = (sol.s, lines, sol.port_props)
            if f == field_freq:
                field_solution = sol
        else:
            pieces[f] = solver.solve_ports(f, ports, keep_fields=f == field_freq or renorm)
        if ranks.is_root():
            protocol.progress(15 + 70 * (i + 1) / max(1, len(tasks)), f"Rank 0: task {i + 1} of {len(tasks)}")
    records = solver.iterative.records if solver.iterative is not None else []
    corrections = solver.iterative.s_corrections if solver.iterative is not None else []
    return {
        "whole": whole,
        "pieces": pieces,
        "field_solution": field_solution,
        "records": records,
        "corrections": corrections,
    }


def run_distributed_sweep(solver: FullwaveSolver, freqs: list[float], field_freq: float, renorm: bool, point):
    """Runs on every rank. Rank 0 returns (done, field_solution, info) as run_sweep builds them; the other
    ranks return None. `point` is sweep._point (a whole frequency's solve)."""
    comm = ranks.world()
    size, rank = comm.Get_size(), comm.Get_rank()
    ordered = [field_freq] + [f for f in dict.fromkeys(freqs) if f != field_freq]
    plan = deal_tasks(ordered, len(solver.ports), size)
    try:
        share: dict[str, Any] = {"ok": True, **_run_share(solver, plan[rank], field_freq, renorm, point)}
    except EngineError as exc:  # the model's fault (a stalled solve): reported by rank 0 as it would be
        share = {"ok": False, "code": exc.code, "message": exc.message}
    share["host"] = ranks.host()
    if rank != 0:
        share.pop("field_solution", None)  # GridFunctions do not travel; rank 0 holds the field frequency
    shares = comm.gather(share, root=0)
    if rank != 0:
        return None
    failed = next((s for s in shares if not s["ok"]), None)
    if failed is not None:
        raise EngineError(failed["code"], failed["message"])
    done: dict[float, tuple[np.ndarray, list, list]] = {}
    field_solution: FrequencySolution | None = shares[0]["field_solution"]
    split: dict[float, list[PortSolve]] = {}
    for s in shares:
        done.update(s["whole"])
        for f, p in s["pieces"].items():
            split.setdefault(f, []).extend(p)
    from fieldline_engine.em.fullwave.sweep import port_line_impedances

    for f, pieces in split.items():
        keep = f == field_freq
        sol = solver.combine(f, pieces, keep_fields=keep or renorm)
        lines = [port_line_impedances(solver, sol, p) for p in range(len(solver.ports))] if renorm else []
        done[f] = (sol.s, lines, sol.port_props)
        if keep:
            field_solution = sol
    if solver.iterative is not None:
        _merge_iterative_records(solver, shares, ordered)
    info = {
        "ranks": size,
        "hosts": sorted({s["host"] for s in shares}),
        "distributed": "independent (frequency, port) solves; each rank builds its own operator",
        "tasks_per_rank": [
            [{"frequency": f, "ports": [p + 1 for p in ps]} for f, ps in tasks] for tasks in plan
        ],
    }
    return done, field_solution, info


def _merge_iterative_records(
    solver: FullwaveSolver, shares: list[dict[str, Any]], ordered: list[float]
) -> None:
    """Every rank's GMRES records in one list, in sweep order, as a one-process run reports them."""
    position = {f: i for i, f in enumerate(ordered)}
    records: list[SolveRecord] = [r for s in shares for r in s["records"]]
    records.sort(key=lambda r: (position.get(r.frequency, len(ordered)), r.port))
    solver.iterative.records = records
    corrections = {c["frequency"]: c for s in shares for c in s["corrections"]}
    corrections.update({c["frequency"]: c for c in solver.iterative.s_corrections})
    solver.iterative.s_corrections = [corrections[f] for f in ordered if f in corrections]
