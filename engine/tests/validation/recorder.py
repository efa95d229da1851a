"""The validation report: every reference case a test checks records one row here.

The case table (cases.toml) owns each case's description, reference source and tolerance; a test
supplies what it measured. A case whose error exceeds the table's tolerance fails its test, and a
full run (FIELDLINE_VALIDATION_REPORT set) fails when a case in the table recorded no row, so
loosening, tightening or dropping a case shows in `npm test`.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import platform
import subprocess
import time
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

CASES_FILE = Path(__file__).with_name("cases.toml")
REPO_ROOT = Path(__file__).resolve().parents[3]
FAMILIES = ("em", "structural", "thermal", "vibration")


@dataclass(frozen=True)
class Case:
    id: str
    family: str
    name: str
    description: str
    geometry: str
    quantity: str
    unit: str
    source: str
    error_kind: str  # "relative", or the unit of an absolute error ("°", "dB")
    tolerance: float
    expected_order: float | None = None


@dataclass
class Row:
    id: str
    family: str
    name: str
    description: str
    geometry: str
    quantity: str
    unit: str
    source: str
    reference: float
    value: float
    error: float
    error_kind: str
    tolerance: float
    passed: bool
    order: int | None
    unknowns: int | None
    seconds: float | None
    convergence: list[dict[str, float]] | None = None
    expected_order: float | None = None
    test: str = ""


def load_cases(path: Path = CASES_FILE) -> dict[str, Case]:
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    cases: dict[str, Case] = {}
    for entry in raw["case"]:
        case = Case(**entry)
        if case.id in cases:
            raise ValueError(f"validation case {case.id!r} is listed twice in {path.name}")
        if case.family not in FAMILIES:
            raise ValueError(f"validation case {case.id!r}: unknown family {case.family!r}")
        cases[case.id] = case
    return cases


@dataclass
class Recorder:
    cases: dict[str, Case]
    rows: dict[str, Row] = field(default_factory=dict)
    current_test: str = ""
    test_started: float = field(default_factory=time.perf_counter)

    def start_test(self, nodeid: str) -> None:
        self.current_test, self.test_started = nodeid, time.perf_counter()

    def record(
        self,
        case_id: str,
        *,
        value: float,
        reference: float,
        error: float,
        unknowns: int | None = None,
        order: int | None = None,
        seconds: float | None = None,
        convergence: list[tuple[int, float]] | None = None,
    ) -> float:
        """Records a case's row and fails (AssertionError) when its error is over the table's tolerance.
        Returns |error| so a test can go on using it."""
        case = self.cases.get(case_id)
        if case is None:
            raise AssertionError(f"validation case {case_id!r} is not in {CASES_FILE.name}")
        magnitude = abs(float(error))
        if not math.isfinite(magnitude):
            raise AssertionError(f"validation case {case_id!r}: error is {error}")
        row = Row(
            **{k: v for k, v in asdict(case).items() if k in Row.__dataclass_fields__},
            reference=float(reference),
            value=float(value),
            error=magnitude,
            passed=magnitude <= case.tolerance,
            order=order,
            unknowns=None if unknowns is None else int(unknowns),
            seconds=round(seconds if seconds is not None else time.perf_counter() - self.test_started, 3),
            convergence=None
            if convergence is None
            else [{"unknowns": int(n), "error": float(e)} for n, e in convergence],
            test=self.current_test,
        )
        self.rows[case_id] = row
        print(
            f"[validation] {case.name}: {value:.6g} vs {reference:.6g} ({case.source}), error {magnitude:.3e}"
            f"{'' if case.error_kind == 'relative' else ' ' + case.error_kind} (tolerance {case.tolerance:g})"
        )
        assert row.passed, f"{case.name}: error {magnitude:.3e} exceeds the tolerance {case.tolerance:g}"
        return magnitude

    def record_solution(
        self, case_id: str, value: float, exact: float, solution, seconds: float, scale: float | None = None
    ) -> float:
        """A case measured on an analysis `Solution`: relative error against `scale` (the rise a case is
        about) or the exact value; unknowns and order from its solver_info. Returns |error|."""
        return self.record(
            case_id,
            value=value,
            reference=exact,
            error=(value - exact) / (scale if scale is not None else exact),
            unknowns=solution.solver_info["matrix_size"],
            order=solution.solver_info["element_order"],
            seconds=seconds,
        )

    def missing(self) -> list[str]:
        return [case_id for case_id in self.cases if case_id not in self.rows]

    def report(self) -> dict[str, Any]:
        order = list(self.cases)
        rows = sorted(self.rows.values(), key=lambda r: order.index(r.id))
        return {
            "generated_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "commit": _git_commit(),
            "machine": {
                "cpus": os.cpu_count(),
                "platform": platform.platform(terse=True),
                "python": platform.python_version(),
            },
            "cases": [asdict(r) for r in rows],
            "missing": self.missing(),
        }


def _git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        )
        return out.stdout.strip() or None
    except OSError:
        return None


def write_report(recorder: Recorder, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(recorder.report(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


RECORDER = Recorder(load_cases())
