"""The validation report's bookkeeping: tolerances enforced, missing cases caught, rows complete."""

import json
import re
from pathlib import Path

import pytest
from validation.recorder import CASES_FILE, Recorder, load_cases, write_report

TESTS = Path(__file__).parent


def small_table(tmp_path: Path) -> Path:
    path = tmp_path / "cases.toml"
    path.write_text(
        "\n".join(
            f"""[[case]]
id = "{case_id}"
family = "em"
name = "{case_id} name"
description = "d"
geometry = "coax"
quantity = "C"
unit = "F"
source = "closed form"
error_kind = "relative"
tolerance = 0.01
"""
            for case_id in ("a", "b")
        ),
        encoding="utf-8",
    )
    return path


def test_a_case_over_its_tolerance_fails_and_is_recorded_as_failed(tmp_path):
    recorder = Recorder(load_cases(small_table(tmp_path)))
    with pytest.raises(AssertionError, match="exceeds the tolerance 0.01"):
        recorder.record("a", value=1.02, reference=1.0, error=0.02)
    assert recorder.rows["a"].passed is False
    assert recorder.record("b", value=1.005, reference=1.0, error=-0.005) == pytest.approx(0.005)
    assert recorder.rows["b"].passed is True


def test_unknown_cases_and_missing_rows_are_errors(tmp_path):
    recorder = Recorder(load_cases(small_table(tmp_path)))
    with pytest.raises(AssertionError, match="not in cases.toml"):
        recorder.record("nope", value=1, reference=1, error=0)
    recorder.record("a", value=1, reference=1, error=0, convergence=[(10, 0.1), (80, 0.0125)])
    assert recorder.missing() == ["b"]
    write_report(recorder, tmp_path / "out" / "report.json")
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["missing"] == ["b"] and len(report["cases"]) == 1
    row = report["cases"][0]
    assert row["convergence"] == [{"unknowns": 10, "error": 0.1}, {"unknowns": 80, "error": 0.0125}]
    assert {"family", "name", "description", "geometry", "source", "reference", "value", "error"} <= set(row)
    assert {"tolerance", "order", "unknowns", "seconds", "test"} <= set(row)
    assert report["generated_at"] and "cpus" in report["machine"]


def test_a_non_finite_error_is_refused(tmp_path):
    recorder = Recorder(load_cases(small_table(tmp_path)))
    with pytest.raises(AssertionError, match="error is nan"):
        recorder.record("a", value=float("nan"), reference=1, error=float("nan"))


def test_duplicate_ids_are_refused(tmp_path):
    path = small_table(tmp_path)
    path.write_text(path.read_text() + path.read_text().split("\n\n")[0].replace('"b"', '"a"'))
    with pytest.raises(ValueError, match="listed twice"):
        load_cases(path)


def test_every_case_in_the_table_is_recorded_by_some_test():
    """A case nobody records would only be caught on a full run; catch it here too."""
    sources = "\n".join(p.read_text(encoding="utf-8") for p in TESTS.rglob("test_*.py"))
    literal = set(re.findall(r'"([a-z0-9.-]+)"', sources))
    prefixes = re.findall(r'f"([a-z0-9.-]+)\{', sources)  # f"em-cavity-{name}" records em-cavity-*
    cases = load_cases(CASES_FILE)
    unrecorded = [c for c in cases if c not in literal and not any(c.startswith(p) for p in prefixes)]
    assert not unrecorded, f"cases in {CASES_FILE.name} no test records: {unrecorded}"
    assert {c.family for c in cases.values()} == {"em", "structural", "thermal", "vibration"}
