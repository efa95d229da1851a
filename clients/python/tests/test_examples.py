"""The examples in clients/python/examples run against the real server and agree with closed form."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from cad import box_step
from conftest import Account

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run_example(account: Account, name: str, model: Path, cwd: Path) -> dict:
    env = {**os.environ, "FIELDLINE_URL": account.origin, "FIELDLINE_TOKEN": account.token}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), str(model)],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
    )
    print(done.stderr)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_capacitor_example(account: Account, models_dir: Path, tmp_path: Path) -> None:
    out = run_example(account, "capacitor.py", box_step(models_dir, "fr4.step", 30, 20, 1.6), tmp_path)
    error = abs(out["capacitance_F"] - out["closed_form_F"]) / out["closed_form_F"]
    print(
        f"capacitor example: {out['capacitance_F']:.5e} F vs ε0εrA/d {out['closed_form_F']:.5e} F, error {error:.2e}"
    )
    assert error < 1e-3


def test_bracket_example(account: Account, models_dir: Path, tmp_path: Path) -> None:
    out = run_example(account, "bracket.py", box_step(models_dir, "bracket.step", 100, 10, 10), tmp_path)
    deflection_error = (
        abs(out["tip_deflection_m"] - out["beam_tip_deflection_m"]) / out["beam_tip_deflection_m"]
    )
    stress_ratio = out["max_von_mises_Pa"] / out["beam_root_stress_Pa"]
    print(
        f"bracket example: tip deflection error {deflection_error:.3f} against Euler-Bernoulli; "
        f"max von Mises / beam root stress = {stress_ratio:.3f}"
    )
    # L/h = 10: shear deformation adds ~1 % to Euler-Bernoulli; the clamped root's corners raise the peak stress.
    assert deflection_error < 0.05
    assert 0.9 < stress_ratio < 2.0


def test_wr90_example(account: Account, models_dir: Path, tmp_path: Path) -> None:
    out = run_example(account, "wr90_s21.py", box_step(models_dir, "wr90.step", 22.86, 10.16, 60), tmp_path)
    worst_phase = max(abs(e) for e in out["s21_phase_error_deg"])
    worst_magnitude = max(abs(m - 1) for m in out["s21_magnitude"])
    print(f"WR-90 example: worst S21 phase error {worst_phase:.2f}°, worst |S21| − 1 {worst_magnitude:.4f}")
    assert worst_phase < 3
    assert worst_magnitude < 0.02
    assert (tmp_path / "wr90_s21.s2p").read_text().lstrip().startswith(("!", "#"))
