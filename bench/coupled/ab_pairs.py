"""The pairing loop pairs.py and standby_pairs.py share: one warm-up run of each side, then A B A B, medians
of each figure and the ratio A/B taken pair by pair (so a comparison holds while the shared machine's speed
drifts)."""

import statistics
from collections.abc import Callable

FIGURES = ("seconds", "cpu_seconds", "peak_mb")


def ab_pairs(
    run_a: Callable[[], dict], run_b: Callable[[], dict], count: int, label_a: str = "A"
) -> dict:
    """`run_a` and `run_b` each run once and return {"seconds", "cpu_seconds", "peak_mb"}."""
    run_a()  # warm-up of each (file cache, bytecode), not counted
    run_b()
    runs_a, runs_b = [], []
    for _ in range(count):
        runs_a.append(run_a())
        runs_b.append(run_b())
        print(f"  {label_a} {runs_a[-1]}  B {runs_b[-1]}", flush=True)
    out: dict = {"pairs": count}
    for key in FIGURES:
        out[f"A_{key}"] = statistics.median(r[key] for r in runs_a)
        out[f"B_{key}"] = statistics.median(r[key] for r in runs_b)
        ratios = [x[key] / y[key] for x, y in zip(runs_a, runs_b, strict=True)]
        out[f"ratio_{key}"] = {
            "median": statistics.median(ratios),
            "min": min(ratios),
            "max": max(ratios),
        }
    for side, runs in (
        ("A", runs_a),
        ("B", runs_b),
    ):  # a side's own figures (fork_pairs.py): medians only
        for key in runs[0].keys() - set(FIGURES):
            out[f"{side}_{key}"] = statistics.median(r[key] for r in runs)
    return out
