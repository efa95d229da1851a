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
