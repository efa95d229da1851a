"""Radial perfectly matched layer as complex-stretched material tensors, for HCurl (e^{+jωt}).

Around a centre c, radius r = |x − c|; inside the PML shell (r > r_in) the radial coordinate is stretched
  r̃ = r − j/(ωε0) ∫ σ dr,  σ(ρ) = σ_max (ρ/d)²,  ρ = r − r_in, d = thickness,
so an outgoing wave e^{−jk r̃} decays as exp(−η0 σ_max ρ³/(3d²)) whatever the frequency.
With s = dr̃/dr = 1 − jσ/(ωε0) the stretched medium is ε·Λ, μ·Λ with
  Λ = s (I − r̂r̂) + (r̃/r)²/s · r̂r̂,   Λ⁻¹ = (I − r̂r̂)/s + s (r/r̃)² · r̂r̂.
We build these tensors ourselves (NGSolve's SetPML is documented as tested on H1 only); the validation
is the plane-wave reflection test in tests/fullwave/test_pml.py.

`pmlSigmaMax` is σ_max in S/m. Beyond a point more σ only makes the decay too steep for the mesh to
resolve (reflection grows again), so the engine caps the one-way attenuation η0 σ_max d/3 at
MAX_ONE_WAY_NEPERS and reports the σ_max it used.
"""

import math
from dataclasses import dataclass, field

import ngsolve as ng
import numpy as np

from fieldline_engine.em.constants import ETA0

MAX_ONE_WAY_NEPERS = 8.0  # theoretical normal-incidence reflection e^{−16} ≈ −139 dB


@dataclass
class RadialPml:
    centre: np.ndarray
    r_inner: float
    thickness: float
    sigma_max_requested: float
    regex: str | None = None  # material names of the PML domains; None: every domain (Λ = I where r < r_in)
    outside_regex: str | None = None  # every other domain
    notes: list[str] = field(default_factory=list)

    @property
    def sigma_max(self) -> float:
        cap = 3 * MAX_ONE_WAY_NEPERS / (ETA0 * self.thickness)
        return min(self.sigma_max_requested, cap)

    def tensors(self, k0: ng.Parameter) -> tuple[ng.CoefficientFunction, ng.CoefficientFunction]:
        c = self.centre
        d = ng.CF((ng.x - c[0], ng.y - c[1], ng.z - c[2]))
        r = ng.sqrt(d * d) + 1e-300
        rhat = d / r
        rho = ng.IfPos(r - self.r_inner, r - self.r_inner, 0.0)
        sig = self.sigma_max * (rho / self.thickness) ** 2
        # 1/(ωε0) = η0/k0
        s = 1 - 1j * ETA0 * sig / k0
        r_t = r - 1j * ETA0 * self.sigma_max * rho**3 / (3 * self.thickness**2) / k0
        ratio2 = (r_t / r) * (r_t / r)
        rr = ng.OuterProduct(rhat, rhat)
        tang = ng.Id(3) - rr
        lam = s * tang + (ratio2 / s) * rr
        lam_inv = (1 / s) * tang + (s / ratio2) * rr
        return lam, lam_inv

    def describe(self) -> dict[str, object]:
        return {
            "type": "radial",
            "centre_m": [float(x) for x in self.centre],
            "inner_radius_m": self.r_inner,
            "thickness_m": self.thickness,
            "sigma_max_requested_s_per_m": self.sigma_max_requested,
            "sigma_max_used_s_per_m": self.sigma_max,
            "profile": "quadratic",
            # |R| = exp(−2·η0 σ_max d/3) at normal incidence, before discretisation
            "theoretical_normal_reflection_db": -20
            / math.log(10)
            * 2
            * ETA0
            * self.sigma_max
            * self.thickness
            / 3,
            "notes": self.notes,
        }
