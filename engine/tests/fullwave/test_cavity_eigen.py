"""Cavity eigenmodes against closed form, and the spurious-mode test.

Rectangular cavity f_mnp = (c/2)·√((m/a)² + (n/b)² + (p/d)²): for 22.86 × 10.16 × 50 mm,
TE101 7.209968, TE102 8.885173, TE103 11.130321 GHz (order 2, within 0.05 %).
Cube (0, π)³: k² = 2 (×3), 3 (×2), 5 (×6), 6 (×6) — a discretisation with spurious modes shows extra
eigenvalues, a zero-mode cluster, or wrong multiplicities.
"""

import math

import numpy as np
from validation.recorder import RECORDER

from fieldline_engine.em.fullwave.eigen import cavity_modes
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.testing.rf_meshes import cavity_mesh


def test_wr90_cavity_resonances_order2():
    mesh = cavity_mesh((22.86e-3, 10.16e-3, 50e-3), maxh=0.0035)
    modes = cavity_modes(mesh, uniform_media(), 2, "default", n_modes=3)
    exact = {"TE101": 7.209968e9, "TE102": 8.885173e9, "TE103": 11.130321e9}
    for mode, (name, f) in zip(modes, exact.items(), strict=True):
        err = (mode.frequency - f) / f
        print(f"{name}: {mode.frequency / 1e9:.6f} GHz, exact {f / 1e9:.6f} GHz, error {err:+.4%}")
        RECORDER.record(f"em-cavity-{name.lower()}", value=mode.frequency, reference=f, error=err, order=2)
        assert mode.q_factor is None


def test_unit_cube_has_no_spurious_modes():
    mesh = cavity_mesh((math.pi,) * 3, maxh=0.9)
    modes = cavity_modes(mesh, uniform_media(), 2, "default", n_modes=11, shift_frequency=None)
    k2 = np.array([m.k_squared.real for m in modes])
    expected = np.array([2, 2, 2, 3, 3, 5, 5, 5, 5, 5, 5], dtype=float)
    print("cube k²:", " ".join(f"{v:.4f}" for v in k2))
    print(f"cube k² max relative error {np.max(np.abs(k2 - expected) / expected):.2e}")
    assert len(k2) == len(expected)
    worst = int(np.argmax(np.abs(k2 - expected) / expected))
    RECORDER.record(  # coarse mesh; the multiplicities are the test
        "em-cube-no-spurious",
        value=k2[worst],
        reference=expected[worst],
        error=(k2[worst] - expected[worst]) / expected[worst],
        order=2,
    )
