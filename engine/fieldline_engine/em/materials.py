"""Material coefficients per body, from the analysis config.

`defaultPermittivity` and `defaultPermeability` are absolute (F/m, H/m) as the spec's defaults show;
per-body materials (`bodyMaterials`) and anisotropic entries are relative values.
"""

from dataclasses import dataclass
from typing import Any

import ngsolve as ng

from fieldline_engine.core.regions import region_index
from fieldline_engine.em.constants import EPS0, MU0
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel


@dataclass
class BodyMaterial:
    permittivity: tuple[float, float, float]  # absolute, diagonal
    permeability: tuple[float, float, float]  # absolute, diagonal
    conductivity: tuple[float, float, float]  # S/m, diagonal
    loss_tangent: float = 0.0  # dielectric loss, ε_c = ε(1 − j tanδ) with e^{+jωt}

    @property
    def isotropic(self) -> bool:
        return all(len(set(t)) == 1 for t in (self.permittivity, self.permeability, self.conductivity))


def body_materials(model: TetModel, config: dict[str, Any]) -> list[BodyMaterial]:
    eps = float(config.get("defaultPermittivity", EPS0))
    mu = float(config.get("defaultPermeability", MU0))
    sigma = float(config.get("defaultConductivity", 0.0))
    materials = [BodyMaterial((eps,) * 3, (mu,) * 3, (sigma,) * 3) for _ in model.region_names]

    for entry in config.get("bodyMaterials") or []:
        i = region_index(model, entry.get("region"), "Body material")
        er = float(entry.get("relativePermittivity", 1.0))
        mr = float(entry.get("relativePermeability", 1.0))
        s = float(entry.get("conductivity", 0.0))
        tan_d = float(entry.get("lossTangent", 0.0) or 0.0)
        materials[i] = BodyMaterial((er * EPS0,) * 3, (mr * MU0,) * 3, (s,) * 3, tan_d)

    if config.get("useAnisotropicMaterials"):
        for entry in config.get("anisotropicMaterials") or []:
            i = region_index(model, entry.get("id"), "Anisotropic material")
            er = entry.get("permittivity") or [1, 1, 1]
            mr = entry.get("permeability") or [1, 1, 1]
            s = entry.get("conductivity") or [0, 0, 0]
            materials[i] = BodyMaterial(
                tuple(float(v) * EPS0 for v in er),
                tuple(float(v) * MU0 for v in mr),
                tuple(float(v) for v in s),
                materials[i].loss_tangent,
            )
    for i, m in enumerate(materials):
        values = (*m.permittivity, *m.permeability)
        if min(values) <= 0 or min(m.conductivity) < 0 or m.loss_tangent < 0:
            raise InvalidInput(
                f"Material of body '{model.region_names[i]}': permittivity and permeability must be "
                "positive, conductivity and loss tangent not negative."
            )
    return materials


def is_conducting(material: BodyMaterial) -> bool:
    return max(material.conductivity) > 0.0


def admittivity(materials: list[BodyMaterial], omega: float) -> list[tuple[complex, complex, complex]]:
    """σ + jωε(1 − j tanδ) per body and axis (engineering convention e^{+jωt})."""
    return [
        tuple(
            s + 1j * omega * e * (1 - 1j * m.loss_tangent)
            for s, e in zip(m.conductivity, m.permittivity, strict=True)
        )
        for m in materials
    ]


def reciprocal(values: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    return [tuple(1.0 / x for x in v) for v in values]


def isotropic_values(values: list[tuple[Any, Any, Any]]) -> list[Any] | None:
    """Each body's value when every body is isotropic (what `coefficient` makes a scalar), else None."""
    return [v[0] for v in values] if all(len(set(v)) == 1 for v in values) else None


def coefficient(mesh: ng.Mesh, values: list[tuple[Any, Any, Any]]) -> ng.CoefficientFunction:
    """A per-body coefficient (real or complex): scalar when every body is isotropic, else a diagonal
    3×3 tensor. Bodies are the mesh materials body0, body1, …"""
    if all(len(set(v)) == 1 for v in values):
        return mesh.MaterialCF({f"body{i}": v[0] for i, v in enumerate(values)}, default=values[0][0])
    tensors = [ng.CF((v[0], 0, 0, 0, v[1], 0, 0, 0, v[2]), dims=(3, 3)) for v in values]
    return mesh.MaterialCF({f"body{i}": t for i, t in enumerate(tensors)}, default=tensors[0])
