"""Plane-wave scattering (scattered-field formulation) and the near-to-far-field transform.

The unknown is the scattered field E_s; on a PEC scatterer E_s,t = −E_inc,t (Dirichlet), the PML
absorbs E_s. Far field (e^{+jωt}, E ~ F(r̂)·e^{−jkr}/r) from the equivalent currents J = n×H_s,
M = −n×E_s on a closed surface around the scatterer (Balanis 12-12):
  F(r̂) = (jk/4π)·[r̂ × L + η r̂ × (r̂ × N)],  N = ∮ J e^{jk r̂·r'} dS',  L = ∮ M e^{jk r̂·r'} dS'.
Radar cross-section σ(r̂) = 4π |F|² / |E0|².
"""

import math

import ngsolve as ng
import numpy as np

from fieldline_engine.em.constants import C0, ETA0
from fieldline_engine.em.fullwave.solver import FullwaveSolver


def plane_wave(e0: np.ndarray, direction: np.ndarray, k: float) -> ng.CoefficientFunction:
    """E_inc = E0 e^{−jk d·x} (travelling along d)."""
    phase = -k * (direction[0] * ng.x + direction[1] * ng.y + direction[2] * ng.z)
    return ng.CF(tuple(complex(c) for c in e0)) * ng.exp(1j * phase)


def scattered_field(solver: FullwaveSolver, frequency: float, scatterer: str, e_inc: ng.CoefficientFunction):
    """Solves for E_s with E_s,t = −E_inc,t on the boundary `scatterer` (part of the solver's PEC set)."""
    solver.solve_setup(frequency)
    gf = ng.GridFunction(solver.fes)
    gf.Set(-e_inc, ng.BND, definedon=solver.mesh.Boundaries(scatterer))
    rhs = gf.vec.CreateVector()
    rhs.data = -solver.a.mat * gf.vec
    gf.vec.data += solver.apply_inverse(rhs)
    return gf


def far_field(
    solver: FullwaveSolver, e_s: ng.GridFunction, frequency: float, surface: str, directions: np.ndarray
) -> np.ndarray:
    """F(r̂) for unit vectors `directions` (n, 3), from the fields on the closed interior surface `surface`.
    The surface normal is taken to point away from the origin (surface around the origin)."""
    mesh = solver.mesh
    k = 2 * math.pi * frequency / C0
    e = ng.BoundaryFromVolumeCF(e_s)
    h = ng.BoundaryFromVolumeCF(solver.magnetic_field(e_s, frequency))
    pos = ng.CF((ng.x, ng.y, ng.z))
    n = pos / ng.sqrt(pos * pos)  # outward on a sphere around the origin
    j_s = ng.Cross(n, h)
    m_s = -ng.Cross(n, e)
    out = np.zeros((len(directions), 3), dtype=complex)
    for i, rhat in enumerate(directions):
        ph = ng.exp(1j * k * (rhat[0] * ng.x + rhat[1] * ng.y + rhat[2] * ng.z))
        big_n = np.array(ng.Integrate(j_s * ph, mesh, ng.BND, definedon=mesh.Boundaries(surface), order=8))
        big_l = np.array(ng.Integrate(m_s * ph, mesh, ng.BND, definedon=mesh.Boundaries(surface), order=8))
        out[i] = (1j * k / (4 * math.pi)) * (
            np.cross(rhat, big_l) + ETA0 * np.cross(rhat, np.cross(rhat, big_n))
        )
    return out


def radar_cross_section(far: np.ndarray, e0: np.ndarray) -> np.ndarray:
    return 4 * math.pi * np.sum(np.abs(far) ** 2, axis=1) / float(np.sum(np.abs(e0) ** 2))


def radiated_power(
    solver: FullwaveSolver, e: ng.GridFunction, frequency: float, surface: str, centre: np.ndarray
) -> float:
    """Time-averaged power (W) leaving the closed interior surface `surface` around `centre`:
    ½ Re ∮ (E × H*)·n dS, with n pointing away from `centre` (a sphere around it)."""
    mesh = solver.mesh
    e_b = ng.BoundaryFromVolumeCF(e)
    h_b = ng.BoundaryFromVolumeCF(solver.magnetic_field(e, frequency))
    d = ng.CF((ng.x - centre[0], ng.y - centre[1], ng.z - centre[2]))
    n = d / ng.sqrt(d * d)
    flux = ng.Cross(e_b, ng.Conj(h_b)) * n
    return 0.5 * float(np.real(ng.Integrate(flux, mesh, ng.BND, definedon=mesh.Boundaries(surface), order=6)))
