"""A B pairs of two prepared run folders (whole process, wait4: process_clock.py): medians and the ratio A/B pair by pair.

A folder with job.json runs the engine (`python -m fieldline_engine solve --job .`, this checkout's engine, one
thread); a folder with one .inp runs CalculiX (`ccx -i NAME`, one thread).

Usage:
  .venv/bin/python bench/coupled/pairs.py OUT/fieldline OUT/ccx [PAIRS]          # coupled job vs CalculiX
  .venv/bin/python bench/coupled/pairs.py OUT/fieldline OUT/structural [PAIRS]   # coupled vs structural alone
"""

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from ab_pairs import ab_pairs
from cylinder import engine_env
from process_clock import timed


def command(folder: Path) -> list[str]:
    if (folder / "job.json").exists():
        return [sys.executable, "-m", "fieldline_engine", "solve", "--job", "."]
    decks = sorted(folder.glob("*.inp"))
    if len(decks) != 1:
        raise SystemExit(f"{folder}: neither job.json nor a single CalculiX deck")
    return ["ccx", "-i", decks[0].stem]


def pairs(a: Path, b: Path, count: int) -> dict:
    env = engine_env()
    out = ab_pairs(
        lambda: timed(command(a), a, env), lambda: timed(command(b), b, env), count
    )
    return {"A": str(a), "B": str(b), **out}


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    result = pairs(
        Path(sys.argv[1]),
        Path(sys.argv[2]),
        int(sys.argv[3]) if len(sys.argv) > 3 else 5,
    )
    print(json.dumps(result, indent=2))
