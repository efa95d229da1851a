"""Closed forms and reference integrals for the magnetics validation (docs/magnetics.md §6).

- Maxwell's mutual inductance of two coaxial circular filaments (radii r1, r2, axial distance d):
  M = μ0 √(r1 r2) [(2/k − k) K(k) − (2/k) E(k)], k² = 4 r1 r2 / ((r1 + r2)² + d²), with K and E the
  complete elliptic integrals (scipy.special.ellipk/ellipe take m = k²).
- Coils of rectangular section carrying a uniform current density: the filament formula integrated over
  both sections (Gauss–Legendre; two different point counts keep a filament from meeting itself, where
  the integrand has a logarithmic singularity), scaled by the turns per area of each.
- On the axis of a thick solenoid (radii a1 < a2, length ℓ, uniform J): B_z(z) = μ0 J/2 Σ± ±u ln((a2 +
  √(a2² + u²))/(a1 + √(a1² + u²))), u = z ± ℓ/2.
- On the axis of a cylindrical magnet (radius R, length ℓ, uniform remanence Br along the axis, μr = 1):
  B_z(z) = Br/2 [(z + ℓ/2)/√(R² + (z + ℓ/2)²) − (z − ℓ/2)/√(R² + (z − ℓ/2)²)].
- Force per length between two parallel bars of rectangular section with uniform currents I and −I:
  f = μ0 I²/(2π A1 A2) ∫∫ (x1 − x2)/|r1 − r2|² dA1 dA2 (the filament force μ0 I²/2πd integrated over the
  sections), repulsive.
"""

import numpy as np
from scipy.special import ellipe, ellipk

MU0 = 4e-7 * np.pi


def loop_mutual(r1, r2, d):
    r1, r2, d = np.broadcast_arrays(np.asarray(r1, float), np.asarray(r2, float), np.asarray(d, float))
    m = 4 * r1 * r2 / ((r1 + r2) ** 2 + d**2)
    k = np.sqrt(m)
    return MU0 * np.sqrt(r1 * r2) * ((2 / k - k) * ellipk(m) - 2 / k * ellipe(m))


def _gauss(lo: float, hi: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    x, w = np.polynomial.legendre.leggauss(n)
    return lo + (x + 1) * (hi - lo) / 2, w * (hi - lo) / 2


def _section(coil, n: int):
    """coil = (a1, a2, z1, z2): points and weights over the (r, z) section, normalised to total weight 1."""
    a1, a2, z1, z2 = coil
    r, wr = _gauss(a1, a2, n)
    z, wz = _gauss(z1, z2, n)
    rr, zz = np.meshgrid(r, z, indexing="ij")
    ww = np.outer(wr, wz) / ((a2 - a1) * (z2 - z1))
    return rr.ravel(), zz.ravel(), ww.ravel()


def coil_mutual(coil1, turns1: float, coil2, turns2: float, n: int = 24) -> float:
    """Mutual (or self, coil1 = coil2) inductance of two coaxial coils of rectangular section."""
    r1, z1, w1 = _section(coil1, n)
    r2, z2, w2 = _section(coil2, n + 1)
    m = loop_mutual(r1[:, None], r2[None, :], z1[:, None] - z2[None, :])
    return float(turns1 * turns2 * (w1[:, None] * w2[None, :] * m).sum())


def solenoid_axis_field(z, a1: float, a2: float, length: float, current_density: float):
    z = np.asarray(z, float)

    def term(u):
        return u * np.log((a2 + np.sqrt(a2**2 + u**2)) / (a1 + np.sqrt(a1**2 + u**2)))

    return MU0 * current_density / 2 * (term(z + length / 2) - term(z - length / 2))


def magnet_axis_field(z, radius: float, length: float, br: float):
    z = np.asarray(z, float)
    up, dn = z + length / 2, z - length / 2
    return br / 2 * (up / np.sqrt(radius**2 + up**2) - dn / np.sqrt(radius**2 + dn**2))


def bar_force_per_length(width: float, height: float, distance: float, current: float, n: int = 16) -> float:
    """Repulsion per metre between bars (width along the line joining their centres) `distance` apart."""
    x, wx = _gauss(-width / 2, width / 2, n)
    y, wy = _gauss(-height / 2, height / 2, n)
    xx, yy = (a.ravel() for a in np.meshgrid(x, y, indexing="ij"))
    ww = np.outer(wx, wy).ravel() / (width * height)
    dx = (xx[:, None] + distance) - xx[None, :]
    dy = yy[:, None] - yy[None, :]
    kernel = dx / (dx**2 + dy**2)
    return float(MU0 * current**2 / (2 * np.pi) * (ww[:, None] * ww[None, :] * kernel).sum())
