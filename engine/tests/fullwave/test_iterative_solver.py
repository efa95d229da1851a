"""The iterative full-wave path (GMRES + BDDC) against the direct factorization on WR-90 at order 2.

Same mesh, same frequencies: S21's phase must agree within 0.05° (bench/scale's goal), and every solve
reports its iterations and true residual. A solve given too few iterations must fail naming its frequency.
"""

import cmath
import math

import pytest

from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.fullwave.solver import FullwaveSolver
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.errors import EngineError
from fieldline_engine.testing.rf_meshes import waveguide_mesh

FREQS = (8.2e9, 10e9, 12.4e9)


@pytest.fixture(scope="module")
def mesh():
    return waveguide_mesh(0.05, maxh=0.008)


def wr90(mesh, linear_solver: str, **kw) -> FullwaveSolver:
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TE10", order=2) for k in range(2)]
    return FullwaveSolver(mesh, uniform_media(), 2, "default", ports, linear_solver=linear_solver, **kw)


def test_iterative_s_parameters_equal_direct(mesh):
    direct, iterative = wr90(mesh, "direct"), wr90(mesh, "gmres-bddc")
    assert (direct.method, iterative.method) == ("direct", "iterative")
    for f in FREQS:
        s_d, s_i = direct.solve(f).s, iterative.solve(f).s
        dphase = math.degrees(cmath.phase(s_i[1, 0] / s_d[1, 0]))
        print(
            f"WR-90 {f / 1e9:.1f} GHz, {iterative.ndof} unknowns: ∠S21 iterative − direct = {dphase:+.2e}°, "
            f"max |ΔS| = {abs(s_i - s_d).max():.1e}"
        )
        assert abs(dphase) < 0.05
        assert abs(s_i - s_d).max() < 1e-4
    info = iterative.describe_linear_solver()
    solves = info["iterative_solves"]
    print(f"iterations per solve: {[s['iterations'] for s in solves]}")
    assert [(s["frequency"], s["port"]) for s in solves] == [(f, p) for f in FREQS for p in (0, 1)]
    assert all(0 < s["iterations"] < 200 and s["residual"] < 1e-4 for s in solves)
    assert info["linear_solver"].startswith("GMRES")


def test_stalled_solve_names_its_frequency(mesh):
    solver = wr90(mesh, "gmres-bddc", max_iterations=2)
    with pytest.raises(EngineError, match=r"did not converge at 10 GHz") as err:
        solver.solve(10e9)
    assert err.value.code == "solver_not_converged"


def test_iterations_counted_across_restarts(mesh, monkeypatch):
    """A solve longer than one GMRES cycle reports every iteration, not only its last cycle's."""
    from fieldline_engine.em.fullwave import iterative

    counts = {}
    for restart in (1000, 5):
        monkeypatch.setattr(iterative, "RESTART", restart)
        solver = wr90(mesh, "gmres-bddc", tolerance=1e-8)
        solver.solve(10e9)
        counts[restart] = [s["iterations"] for s in solver.describe_linear_solver()["iterative_solves"]]
    print(f"iterations without restart {counts[1000]}, restarted every 5: {counts[5]}")
    assert all(n > 5 for n in counts[1000])
    # Restarting loses the Krylov basis: never fewer iterations than one unrestarted cycle.
    assert all(r >= n for r, n in zip(counts[5], counts[1000], strict=True))


def test_adjoint_correction_makes_s_exact_to_second_order(mesh, monkeypatch):
    """A = Aᵀ, so each port's solve is the adjoint of the other overlaps: S corrected by the adjoint-weighted
    residual is exact up to a product of two solve errors. At a loose tolerance the plain overlaps are off by
    about the tolerance and the corrected S by about its square."""
    from fieldline_engine.em.fullwave import iterative

    monkeypatch.setattr(iterative, "TRUE_RESIDUAL_LIMIT", 1.0)  # a deliberately loose solve, not a stall
    direct = wr90(mesh, "direct").solve(10e9).s
    loose = wr90(mesh, "gmres-bddc", tolerance=1e-3)
    sol = loose.solve(10e9, keep_fields=False)
    plain, corrected = abs(sol.s_uncorrected - direct).max(), abs(sol.s - direct).max()
    change = loose.describe_linear_solver()["s_corrections"]
    print(f"tolerance 1e-3: plain max |ΔS| {plain:.1e}, corrected {corrected:.1e}, correction {change}")
    assert plain > 1e-5  # the loose solve really is loose
    assert corrected < plain / 20
    assert change[0]["frequency"] == 10e9 and change[0]["max_change"] > 0.5 * plain


def test_s_only_solves_iterate_less_and_stay_as_accurate(mesh):
    """Without fields a solve iterates to s_only_tolerance (⅛√tol): fewer iterations, and the corrected S is
    at least as close to the direct solve as the plain overlaps of a solve to the full tolerance."""
    from fieldline_engine.em.fullwave.iterative import s_only_tolerance

    direct = wr90(mesh, "direct").solve(10e9).s
    solver = wr90(mesh, "gmres-bddc", tolerance=1e-6)
    full = solver.solve(10e9, keep_fields=True)
    s_only = solver.solve(10e9, keep_fields=False)
    full_solves, s_solves = (
        solver.describe_linear_solver()["iterative_solves"][:2],
        solver.describe_linear_solver()["iterative_solves"][2:],
    )
    errors = {
        "plain, full tolerance": abs(full.s_uncorrected - direct).max(),
        "corrected, S-only tolerance": abs(s_only.s - direct).max(),
    }
    print(
        f"iterations full {[s['iterations'] for s in full_solves]}, S-only {[s['iterations'] for s in s_solves]} "
        f"(tolerance {s_only_tolerance(1e-6):g}); max |ΔS| vs direct {errors}"
    )
    assert s_only_tolerance(1e-6) == 1.25e-4 and all(s["tolerance"] == 1.25e-4 for s in s_solves)
    assert all(s["tolerance"] == 1e-6 for s in full_solves)
    assert all(s["iterations"] < f["iterations"] for s, f in zip(s_solves, full_solves, strict=True))
    assert errors["corrected, S-only tolerance"] <= errors["plain, full tolerance"]
