"""Adaptive fast sweep (Galerkin reduced-order model) against the uniform sweep and closed forms.

WR-90 with TE10 ports exercises the non-polynomial port factor γ(f) = j k0 η0/Z_TE(f) (β(f) varies);
RG-401 coax with TEM ports, the renormalising voltage_current method (line impedances from the reduced
model's fields). A matched WR-90 line has |S21| = 1 and ∠S21 = −βL at every point.
"""

import cmath
import math

import numpy as np
import pytest
import scipy.sparse as sp

from fieldline_engine.em.constants import C0, ETA0
from fieldline_engine.em.fullwave.affine import affine_terms, assemble
from fieldline_engine.em.fullwave.fast_sweep import run_frequency_sweep
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.fullwave.pml import RadialPml
from fieldline_engine.em.fullwave.solver import FullwaveSolver, ImpedanceWall
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.errors import InvalidInput
from fieldline_engine.testing.rf_meshes import (
    RG401_EPS_R,
    RG401_INNER,
    RG401_OUTER,
    WR90_A,
    coax_mesh,
    waveguide_mesh,
)

L = 0.1
POINTS = 101


def s_array(section) -> np.ndarray:
    return np.array([[[complex(*v) for v in row] for row in m] for m in section["matrix"]])


def wr90_solver(maxh=0.012, order=2, **kw) -> FullwaveSolver:
    mesh = waveguide_mesh(L, maxh=maxh)
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TE10") for k in range(2)]
    return FullwaveSolver(mesh, uniform_media(), order, "default", ports, **kw)


@pytest.fixture(scope="module")
def wr90_sweeps():
    solver = wr90_solver()
    freqs = [float(f) for f in np.linspace(8.2e9, 12.4e9, POINTS)]
    uniform, _, info_u = run_frequency_sweep(solver, freqs, freqs[50], "wave_port", 50.0)
    adaptive, _, info_a = run_frequency_sweep(solver, freqs, freqs[50], "wave_port", 50.0, "adaptive")
    return freqs, uniform, adaptive, info_u, info_a


def test_affine_split_reproduces_the_solver_matrix():
    """Σ φ_t(f)·T_t equals the solver's own assembly (lossy filling, TE ports, an impedance wall)."""
    mesh = waveguide_mesh(L, maxh=0.02, wall_label="wall")
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TE10") for k in range(2)]
    wall = ImpedanceWall("wall", lambda f: complex(0.02, 0.03) * math.sqrt(f / 1e9))
    solver = FullwaveSolver(mesh, uniform_media(2.2 - 0.02j, sigma=0.05), 2, "", ports, [wall])
    terms, why = affine_terms(solver)
    assert why is None and [t.name for t in terms][:3] == ["stiffness", "mass", "conduction"]
    worst = 0.0
    for f in (5e9, 9.3e9):
        solver.solve_setup(f)
        vals, cols, ptr = solver.a.mat.CSR()
        a = sp.csr_matrix((np.array(vals), np.array(cols), np.array(ptr)), shape=(solver.ndof,) * 2)
        worst = max(worst, abs(a - assemble(terms, f)).max() / abs(a).max())
    print(f"affine split vs assembled operator: max relative entry difference {worst:.1e}")
    assert worst < 1e-12


def test_adaptive_matches_uniform_on_wr90_te10(wr90_sweeps):
    freqs, uniform, adaptive, info_u, info = wr90_sweeps
    su, sa = s_array(uniform), s_array(adaptive)
    d_mag = np.max(np.abs(np.abs(su) - np.abs(sa)))
    d_s = np.max(np.abs(su - sa))
    d_phase = np.max(np.abs(np.degrees(np.angle(sa[:, 1, 0] / su[:, 1, 0]))))
    print(
        f"WR-90 TE10 {POINTS} points: adaptive {info['full_solves']} full solves (uniform "
        f"{info_u['full_solves']}), max |ΔS| {d_s:.1e}, max Δ|S| {d_mag:.1e}, max Δ∠S21 {d_phase:.1e}°, "
        f"indicator {info['error_estimate']:.1e}, samples {[f'{f / 1e9:.3f}' for f in info['sampled_frequencies']]}"
    )
    assert info["type"] == "adaptive" and info["converged"] and info_u["full_solves"] == POINTS
    assert info["full_solves"] <= 8 and info["full_solves"] == len(info["sampled_frequencies"])
    assert info["error_estimate"] <= info["tolerance"] == 1e-3
    assert d_s < 1e-4 and d_phase < 0.01
    assert adaptive["frequencies"] == uniform["frequencies"]
    assert adaptive["mode_impedances_ohm"] == uniform["mode_impedances_ohm"]


def test_adaptive_wr90_matched_line_closed_form():
    """On the finer mesh of test_waveguide.py (order 3), through the adaptive path only."""
    solver = wr90_solver(maxh=0.008, order=3)
    freqs = [float(f) for f in np.linspace(8.2e9, 12.4e9, POINTS)]
    adaptive, field, info = run_frequency_sweep(solver, freqs, 10e9, "wave_port", 50.0, "adaptive")
    s = s_array(adaptive)
    mag, phase, s11 = 0.0, 0.0, 0.0
    for k, f in enumerate(freqs):
        beta = math.sqrt((2 * math.pi * f / C0) ** 2 - (math.pi / WR90_A) ** 2)
        mag = max(mag, abs(abs(s[k, 1, 0]) - 1))
        phase = max(phase, abs((math.degrees(cmath.phase(s[k, 1, 0]) + beta * L) + 180) % 360 - 180))
        s11 = max(s11, abs(s[k, 0, 0]))
    print(
        f"adaptive WR-90 matched line, {POINTS} points: max ||S21|-1| {mag:.1e}, max ∠S21 error "
        f"{phase:.3f}°, max |S11| {20 * math.log10(s11):.1f} dB; {info['full_solves']} full solves, "
        f"{solver.ndof} unknowns"
    )
    assert info["type"] == "adaptive" and info["full_solves"] <= 8
    assert mag < 1e-3 and phase < 0.5 and s11 < 0.01
    assert np.max(np.abs(s[:, 0, 1] - s[:, 1, 0])) < 1e-9  # reciprocity survives the projection
    assert field.frequency == 10e9 and len(field.excitations) == 2  # fields come from a full solve


def test_adaptive_matches_full_solves_on_coax_with_voltage_current():
    mesh = coax_mesh(0.01, maxh=0.004, curve_order=2, curvature_safety=1.0)
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TEM", RG401_EPS_R) for k in range(2)]
    solver = FullwaveSolver(mesh, uniform_media(RG401_EPS_R), 2, "default", ports)
    freqs = [float(f) for f in np.linspace(1e9, 20e9, POINTS)]
    out, _, info = run_frequency_sweep(solver, freqs, 10.5e9, "voltage_current", 100.0, "adaptive")
    s = s_array(out)
    # The uniform sweep at every 10th point (each a full solve), same method.
    check = freqs[::10]
    ref, _, _ = run_frequency_sweep(solver, check, 10.5e9, "voltage_current", 100.0)
    sr = s_array(ref)
    d_s = max(np.max(np.abs(s[10 * i] - sr[i])) for i in range(len(check)))
    # Closed form: a Z0 line of electrical length θ between 100 Ω references,
    # S11 = (j/2)(z − 1/z) sin θ / (cos θ + (j/2)(z + 1/z) sin θ), z = Z0/100.
    z = ETA0 / (2 * math.pi * math.sqrt(RG401_EPS_R)) * math.log(RG401_OUTER / RG401_INNER) / 100.0

    def s11(f: float) -> complex:
        theta = 2 * math.pi * f / C0 * math.sqrt(RG401_EPS_R) * 0.01
        return 0.5j * (z - 1 / z) * math.sin(theta) / (math.cos(theta) + 0.5j * (z + 1 / z) * math.sin(theta))

    closed = max(abs(abs(s[k, 0, 0]) - abs(s11(f))) for k, f in enumerate(freqs))
    closed_full = max(abs(abs(sr[i, 0, 0]) - abs(s11(f))) for i, f in enumerate(check))
    print(
        f"coax TEM voltage_current {POINTS} points: {info['full_solves']} full solves, "
        f"max |ΔS| vs full solves {d_s:.1e} at {len(check)} points, max ||S11| − closed form| {closed:.1e} "
        f"(full solves alone {closed_full:.1e}: the mesh's Z0 error), "
        f"indicator {info['error_estimate']:.1e}"
    )
    assert info["type"] == "adaptive" and info["converged"] and info["full_solves"] <= 6
    assert d_s < 1e-3
    assert closed < 0.03 and closed - closed_full < 1e-3


def test_pml_falls_back_to_uniform_and_says_so():
    pml = RadialPml(np.array([0.0, 0.0, 0.05]), 0.5, 0.1, 1.0)  # outside the guide: Λ = I, still a PML form
    solver = wr90_solver(maxh=0.025, order=1, pml=pml)
    freqs = [float(f) for f in np.linspace(8e9, 12e9, 6)]
    out, _, info = run_frequency_sweep(solver, freqs, freqs[2], "wave_port", 50.0, "adaptive")
    print(f"PML model, adaptive requested: {info}")
    assert info["type"] == "uniform" and info["requested"] == "adaptive"
    assert "PML" in info["warning"] and info["full_solves"] == 6
    assert len(out["matrix"]) == 6


def test_short_sweep_and_bad_settings():
    solver = wr90_solver(maxh=0.025, order=1)
    _, _, info = run_frequency_sweep(solver, [9e9, 10e9, 11e9], 10e9, "wave_port", 50.0, "adaptive")
    assert info["type"] == "uniform" and "at least 6 points" in info["warning"]
    with pytest.raises(InvalidInput, match="sParamSweepType"):
        run_frequency_sweep(solver, [9e9, 10e9], 10e9, "wave_port", 50.0, "fast")
    with pytest.raises(InvalidInput, match="between 1e-08 and 0.1"):
        run_frequency_sweep(solver, [9e9, 10e9], 10e9, "wave_port", 50.0, "adaptive", tolerance=2.0)


def test_residual_indicator_equals_the_full_residual_in_row_blocks(monkeypatch):
    """The QR-based indicator equals ‖A(f)Vy − g‖/‖g‖ computed directly, also when the projection runs
    in many row blocks (TSQR)."""
    from fieldline_engine.em.fullwave import reduced_model
    from fieldline_engine.em.fullwave.reduced_model import ReducedModel

    solver = wr90_solver(maxh=0.02, order=2)
    terms, _ = affine_terms(solver)
    free = np.array(list(solver.free_dofs), dtype=bool)
    vectors = [
        v
        for f in (8.5e9, 9.3e9, 10e9, 11e9, 12e9)
        for v in (g.vec.FV().NumPy().copy() for g in solver.solve(f).excitations)
    ]
    f = 10.2e9
    a = assemble(terms, f)
    out = {}
    for block in (10**9, 97):
        monkeypatch.setattr(reduced_model, "_ROW_BLOCK", block)
        model = ReducedModel(terms, solver.overlaps, free)
        model.add(vectors)
        y = model.solve(f)
        direct = [
            np.linalg.norm((a @ model.expand(y[:, p]) - solver.overlaps[p])[free])
            / np.linalg.norm(solver.overlaps[p][free])
            for p in range(2)
        ]
        out[block] = (model.residuals(f, y), np.array(direct), model.overlaps(y))
    (ind1, dir1, ov1), (ind2, _, ov2) = out[10**9], out[97]
    print(
        f"indicator {ind1} vs direct {dir1} (rel. diff {np.max(np.abs(ind1 - dir1) / dir1):.1e}); "
        f"97-row blocks: indicator diff {np.max(np.abs(ind2 - ind1) / ind1):.1e}, overlaps diff "
        f"{np.max(np.abs(ov2 - ov1)) / np.max(np.abs(ov1)):.1e}; {solver.ndof} unknowns"
    )
    assert np.all(dir1 > 1e-6)  # a genuine residual, not a trivially exact model
    assert np.max(np.abs(ind1 - dir1) / dir1) < 1e-8
    assert np.max(np.abs(ind2 - ind1) / ind1) < 1e-8 and np.max(np.abs(ov2 - ov1)) < 1e-10 * np.max(
        np.abs(ov1)
    )
