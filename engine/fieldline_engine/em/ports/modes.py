"""Analytic port modes: TE/TM of rectangular and circular guides, TEM of coaxial lines.

A `ModeShape` is a transverse electric field profile on a port face plus its cutoff wavenumber and
family. It knows nothing about frequency; `propagation` turns it into β and the wave impedance at a
given frequency and filling. The same shapes drive the time-domain solver's ports (issue 7), so they
evaluate both as NGSolve coefficient functions and as plain numpy functions of global points.
Phasor convention: e^{+jωt}, a wave travelling along +ζ varies as e^{-jβζ}.
"""

import cmath
import math
from collections.abc import Callable
from dataclasses import dataclass

import ngsolve as ng
import numpy as np

from fieldline_engine.em.constants import ETA0
from fieldline_engine.em.ports.port_face import PortFace
from fieldline_engine.errors import InvalidInput

# Zeros of J_n (p_nm) and of J_n' (p'_nm) used by the circular modes offered here.
_BESSEL_ZEROS = {("TM", 0, 1): 2.404825557695773, ("TM", 1, 1): 3.831705970207512}
_BESSEL_PRIME_ZEROS = {("TE", 1, 1): 1.841183781340659, ("TE", 2, 1): 3.054236928227140}

# Which analytic mode a user-facing mode name means on each cross-section.
_MODE_MAP = {
    "rectangle": {"TE10": ("TE", 1, 0), "TE20": ("TE", 2, 0), "TM01": ("TM", 1, 1)},
    "circle": {"TE10": ("TE", 1, 1), "TE20": ("TE", 2, 1), "TM01": ("TM", 0, 1)},
    "coax": {"TEM": ("TEM", 0, 0)},
}


@dataclass
class ModeShape:
    name: str  # the mode actually used, e.g. "TE10", "TM11", "TE11" (circular), "TEM"
    family: str  # "TE" | "TM" | "TEM" | "hybrid"
    cutoff_wavenumber: float  # k_c in rad/m (0 for TEM)
    # Transverse field from local coordinates (u, v) relative to the face origin, as (e_u, e_v).
    local_field: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]] | None
    face: PortFace
    note: str | None = None
    source: str = "analytic"
    numeric_cf: ng.CoefficientFunction | None = None  # set for numerically computed modes

    def cf(self) -> ng.CoefficientFunction:
        """The transverse field as a global 3-vector coefficient function (meaningful on the port face)."""
        if self.numeric_cf is not None:
            return self.numeric_cf
        f = self.face
        d = (ng.x - f.origin[0], ng.y - f.origin[1], ng.z - f.origin[2])
        u = d[0] * f.u_axis[0] + d[1] * f.u_axis[1] + d[2] * f.u_axis[2]
        v = d[0] * f.v_axis[0] + d[1] * f.v_axis[1] + d[2] * f.v_axis[2]
        eu, ev = _CF_FIELDS[self._kind()](self, u, v)
        return ng.CF(tuple(eu * f.u_axis[i] + ev * f.v_axis[i] for i in range(3)))

    def field_at(self, points: np.ndarray) -> np.ndarray:
        """The transverse field (n, 3) at global points on the face (numpy; for the time-domain ports)."""
        if self.local_field is None:
            raise ValueError("numeric modes are evaluated through cf()")
        uv = self.face.local(points)
        eu, ev = self.local_field(uv[:, 0], uv[:, 1])
        return eu[:, None] * self.face.u_axis + ev[:, None] * self.face.v_axis

    def _kind(self) -> str:
        return f"{self.face.shape}:{self.family}"


@dataclass
class Propagation:
    beta: complex  # rad/m; real above cutoff, -j·α below (e^{+jωt})
    wave_impedance: complex  # Ω, E_t/H_t of the mode
    k: complex  # wavenumber of the filling, k0·√(εr μr)
    # Ω, V/I of a TEM line (voltage between its conductors over the current on the inner one): what an RF
    # engineer calls the port's impedance (≈ 50 Ω), unlike the TEM wave impedance η/√εr. None for hollow
    # guides, whose V and I depend on the chosen path.
    line_impedance: complex | None = None

    @property
    def propagating(self) -> bool:
        return abs(self.beta.real) > abs(self.beta.imag)


def propagation(shape: ModeShape, k0: float, eps_r: complex, mu_r: complex) -> Propagation:
    k = k0 * cmath.sqrt(eps_r * mu_r)
    beta = cmath.sqrt(k * k - shape.cutoff_wavenumber**2)
    if beta.imag > 0:  # choose the root that decays (and carries power away) in e^{+jωt}
        beta = -beta
    if beta == 0:
        beta = complex(0.0, -1e-12)
    if shape.family == "TM":
        z = beta * ETA0 / (k0 * eps_r)
    elif shape.family == "TEM":
        z = ETA0 * cmath.sqrt(mu_r / eps_r)
    else:  # TE and numerically found modes use the TE form with their own β (see eigenmode.py)
        z = k0 * ETA0 * mu_r / beta
    line = None
    if shape.family == "TEM" and shape.face.shape == "coax":
        # E = V/(ρ ln(b/a)), H = I/(2πρ): V/I = (E_t/H_t) ln(b/a)/2π
        line = z * math.log(shape.face.dims["outer"] / shape.face.dims["inner"]) / (2 * math.pi)
    return Propagation(beta, z, k, line)


def analytic_mode(face: PortFace, mode: str) -> ModeShape | None:
    """The analytic mode for `mode` on this face, or None when the face needs a numeric solve."""
    table = _MODE_MAP.get(face.shape)
    if face.shape == "coax" and mode != "TEM":
        return None  # coaxial TE/TM modes come from the eigenmode solve
    if mode == "TEM" and face.shape != "coax":
        if face.shape in ("rectangle", "circle"):
            raise InvalidInput(
                f"Wave port {face.label}: a TEM mode needs two conductors (e.g. a coaxial face); "
                f"this port is a hollow {face.shape}. Use TE10, TE20 or TM01."
            )
        return None
    if table is None:
        return None
    family, m, n = table[mode]
    note = None
    if face.shape == "rectangle":
        a, b = face.dims["a"], face.dims["b"]
        kc = math.pi * math.hypot(m / a, n / b)
        name = f"{family}{m}{n}"
        if mode == "TM01":
            note = "TM01 does not exist in a rectangular guide; its lowest TM mode, TM11, is used."
        return ModeShape(name, family, kc, _rect_field(family, m, n, a, b), face, note)
    if face.shape == "circle":
        r = face.dims["radius"]
        p = _BESSEL_PRIME_ZEROS[(family, m, n)] if family == "TE" else _BESSEL_ZEROS[(family, m, n)]
        name = f"{family}{m}{n}"
        if mode != name:
            note = f"In a circular guide {mode} is taken as {name}."
        return ModeShape(name, family, p / r, _circ_field(family, m, p, r), face, note)
    inner = face.dims["inner"]
    return ModeShape("TEM", "TEM", 0.0, _coax_field(inner), face)


# --- rectangular guide: u ∈ [0, a] along the broad side, v ∈ [0, b] -------------------------------


def _rect_field(family: str, m: int, n: int, a: float, b: float):
    ku, kv = m * math.pi / a, n * math.pi / b

    def field(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if family == "TE":  # E_t = ẑ×∇Hz-like, signed so TE10 points along +v
            return -kv * np.cos(ku * u) * np.sin(kv * v), ku * np.sin(ku * u) * np.cos(kv * v)
        return ku * np.cos(ku * u) * np.sin(kv * v), kv * np.sin(ku * u) * np.cos(kv * v)

    return field


def _rect_cf(shape: ModeShape, u, v):
    a, b = shape.face.dims["a"], shape.face.dims["b"]
    m, n = int(shape.name[2]), int(shape.name[3])
    ku, kv = m * math.pi / a, n * math.pi / b
    if shape.family == "TE":
        return -kv * ng.cos(ku * u) * ng.sin(kv * v), ku * ng.sin(ku * u) * ng.cos(kv * v)
    return ku * ng.cos(ku * u) * ng.sin(kv * v), kv * ng.sin(ku * u) * ng.cos(kv * v)


# --- circular guide (TE_n1 / TM_n1 by Bessel series) ------------------------------------------------


def _bessel_series_coeffs(n: int, terms: int = 24) -> list[float]:
    return [(-1) ** k / (math.factorial(k) * math.factorial(k + n)) for k in range(terms)]


def _jn_np(n: int, x: np.ndarray) -> np.ndarray:
    from scipy.special import jv

    return jv(n, x)


def _jnp_np(n: int, x: np.ndarray) -> np.ndarray:
    from scipy.special import jvp

    return jvp(n, x)


def _jn_cf(n: int, x):
    """J_n(x) as a coefficient function (power series; accurate to round-off for x below ~8)."""
    half_sq = (x / 2) * (x / 2)
    acc = 0.0 * x
    for c in reversed(_bessel_series_coeffs(n)):
        acc = acc * half_sq + c
    return acc * (x / 2) ** n if n > 0 else acc


def _jnp_cf(n: int, x):
    """J_n'(x) = (J_{n-1} − J_{n+1})/2, with J_{-1} = −J_1."""
    lower = -_jn_cf(1, x) if n == 0 else _jn_cf(n - 1, x)
    return 0.5 * (lower - _jn_cf(n + 1, x))


def _circ_field(family: str, n: int, p: float, radius: float):
    kc = p / radius

    def field(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rho = np.hypot(u, v)
        phi = np.arctan2(v, u)
        safe = np.maximum(rho, 1e-300)
        if family == "TE":  # Hz = J_n(kc ρ) cos nφ ; E_t = ẑ × ∇Hz (up to sign)
            e_rho = n * _jn_np(n, kc * rho) * np.sin(n * phi) / safe if n else 0 * rho
            e_phi = kc * _jnp_np(n, kc * rho) * np.cos(n * phi)
        else:  # Ez = J_n(kc ρ) cos nφ ; E_t = -∇Ez
            e_rho = -kc * _jnp_np(n, kc * rho) * np.cos(n * phi)
            e_phi = n * _jn_np(n, kc * rho) * np.sin(n * phi) / safe
        c, s = np.cos(phi), np.sin(phi)
        return e_rho * c - e_phi * s, e_rho * s + e_phi * c

    return field


def _circ_cf(shape: ModeShape, u, v):
    radius = shape.face.dims["radius"]
    n = int(shape.name[2])
    p = shape.cutoff_wavenumber * radius
    kc = p / radius
    rho = ng.sqrt(u * u + v * v) + 1e-300
    c, s = u / rho, v / rho
    # cos nφ and sin nφ from (c, s) without atan2
    cos_n, sin_n = (1.0, 0.0) if n == 0 else ((c, s) if n == 1 else (c * c - s * s, 2 * c * s))
    if shape.family == "TE":
        jn_over_rho = _jn_cf(n, kc * rho) / rho if n else 0.0 * rho
        e_rho = n * jn_over_rho * sin_n
        e_phi = kc * _jnp_cf(n, kc * rho) * cos_n
    else:
        e_rho = -kc * _jnp_cf(n, kc * rho) * cos_n
        e_phi = (n * _jn_cf(n, kc * rho) / rho * sin_n) if n else 0.0 * rho
    return e_rho * c - e_phi * s, e_rho * s + e_phi * c


# --- coaxial TEM: E = ρ̂/ρ ---------------------------------------------------------------------------


def _coax_field(inner: float):
    def field(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rho2 = np.maximum(u * u + v * v, (0.5 * inner) ** 2)
        return u / rho2, v / rho2

    return field


def _coax_cf(shape: ModeShape, u, v):
    rho2 = u * u + v * v
    return u / rho2, v / rho2


_CF_FIELDS = {
    "rectangle:TE": _rect_cf,
    "rectangle:TM": _rect_cf,
    "circle:TE": _circ_cf,
    "circle:TM": _circ_cf,
    "coax:TEM": _coax_cf,
}
