"""Material coefficients per body, from the analysis config.

`defaultPermittivity` and `defaultPermeability` are absolute (F/m, H/m) as the spec's defaults show;
per-body materials (`bodyMaterials`) and anisotropic entries are relative values.
"""

from dataclasses import dataclass
from typing import Any

import ngsolve as ng

from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.physics.constants import EPS0, MU0


@dataclass
class BodyMaterial:
    permittivity: tuple[float, float, float]  # absolute, diagonal
    permeability: tuple[float, float, float]  # absolute, diagonal
    conductivity: tuple[float, float, float]  # S/m, diagonal
    loss_tangent: float = 0.0  # dielectric loss tangent (time-harmonic solvers)

    @property
    def isotropic(self) -> bool:
        return all(len(set(t)) == 1 for t in (self.permittivity, self.permeability, self.conductivity))


def body_materials(model: TetModel, config: dict[str, Any]) -> list[BodyMaterial]:
    eps = float(config.get("defaultPermittivity", EPS0))
    mu = float(config.get("defaultPermeability", MU0))
    sigma = float(config.get("defaultConductivity", 0.0))
    materials = [BodyMaterial((eps,) * 3, (mu,) * 3, (sigma,) * 3) for _ in model.region_names]

    def region_index(ref: Any) -> int | None:
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
            i = int(ref)
            return i if 0 <= i < len(materials) else None
        return model.region_names.index(ref) if ref in model.region_names else None

    for entry in config.get("bodyMaterials") or []:
        i = region_index(entry.get("region"))
        if i is None:
            continue
        er = float(entry.get("relativePermittivity", 1.0))
        mr = float(entry.get("relativePermeability", 1.0))
        s = float(entry.get("conductivity", 0.0))
        tan_d = float(entry.get("lossTangent", 0.0) or 0.0)
        materials[i] = BodyMaterial((er * EPS0,) * 3, (mr * MU0,) * 3, (s,) * 3, tan_d)

    if config.get("useAnisotropicMaterials"):
        for entry in config.get("anisotropicMaterials") or []:
            i = region_index(entry.get("id"))
            if i is None:
                continue
            er = entry.get("permittivity") or [1, 1, 1]
            mr = entry.get("permeability") or [1, 1, 1]
            s = entry.get("conductivity") or [0, 0, 0]
            materials[i] = BodyMaterial(
                tuple(float(v) * EPS0 for v in er),
                tuple(float(v) * MU0 for v in mr),
                tuple(float(v) for v in s),
            )
    return materials


def coefficient(mesh: ng.Mesh, values: list[tuple[float, float, float]]) -> ng.CoefficientFunction:
    """A per-body coefficient: scalar when every body is isotropic, else a diagonal 3×3 tensor."""
    if all(len(set(v)) == 1 for v in values):
        return mesh.MaterialCF({f"body{i}": v[0] for i, v in enumerate(values)}, default=values[0][0])
    tensors = [ng.CF((v[0], 0, 0, 0, v[1], 0, 0, 0, v[2]), dims=(3, 3)) for v in values]
    return mesh.MaterialCF({f"body{i}": t for i, t in enumerate(tensors)}, default=tensors[0])
