"""Material coefficients for the curl-curl equation: εr, μr⁻¹ (scalar or diagonal tensors) and σ.

The equation (e^{+jωt}): ∇×(μr⁻¹∇×E) − k0²(εr(1 − j·tanδ) − jσ/(ωε0))E = 0.
"""

from dataclasses import dataclass

import ngsolve as ng

from fieldline_engine.em.constants import EPS0, MU0
from fieldline_engine.em.materials import BodyMaterial


@dataclass
class Media:
    eps_r: ng.CoefficientFunction  # complex when a loss tangent is set
    inv_mu_r: ng.CoefficientFunction
    sigma: ng.CoefficientFunction  # S/m
    lossy: bool
    max_eps_mu: float  # largest εr·μr (for mesh-resolution and eigen-shift estimates)


def _diag_cf(mesh: ng.Mesh, values: list[tuple[complex, complex, complex]]) -> ng.CoefficientFunction:
    if all(len(set(v)) == 1 for v in values):
        return mesh.MaterialCF({f"body{i}": v[0] for i, v in enumerate(values)}, default=values[0][0])
    tensors = [ng.CF((v[0], 0, 0, 0, v[1], 0, 0, 0, v[2]), dims=(3, 3)) for v in values]
    return mesh.MaterialCF({f"body{i}": t for i, t in enumerate(tensors)}, default=tensors[0])


def media_from_bodies(mesh: ng.Mesh, bodies: list[BodyMaterial]) -> Media:
    """Per-body materials (absolute values from materials.py) on a mesh whose domains are body0, body1, …"""
    eps = []
    for b in bodies:
        tan_d = getattr(b, "loss_tangent", 0.0)
        eps.append(tuple(complex(e / EPS0) * complex(1.0, -tan_d) for e in b.permittivity))
    inv_mu = [tuple(MU0 / m for m in b.permeability) for b in bodies]
    sigma = [tuple(b.conductivity) for b in bodies]
    lossy = any(s != 0 for t in sigma for s in t) or any(e.imag != 0 for t in eps for e in t)
    max_eps_mu = max(
        max(abs(e) for e in t) * max(m / MU0 for m in b.permeability)
        for t, b in zip(eps, bodies, strict=True)
    )
    eps_cf = _diag_cf(mesh, [tuple(e if e.imag else e.real for e in t) for t in eps])
    return Media(eps_cf, _diag_cf(mesh, inv_mu), _diag_cf(mesh, sigma), lossy, float(max_eps_mu))


def uniform_media(eps_r: complex = 1.0, mu_r: float = 1.0, sigma: float = 0.0) -> Media:
    """One homogeneous filling, for meshes built directly with netgen (validation tests, benches)."""
    return Media(
        ng.CF(eps_r),
        ng.CF(1.0 / mu_r),
        ng.CF(sigma),
        sigma != 0 or complex(eps_r).imag != 0,
        abs(eps_r) * mu_r,
    )
