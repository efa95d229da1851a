"""Per-body material properties by name, from the config's `bodyMaterials` (docs/multiphysics.md §5).

The server expands a library material (`material: "copper"`) into its properties before the engine runs,
so an entry here holds properties only. A family asks for the properties it needs, each with its default
(usually a config-level key such as `density`); a body's entry overrides them. Bodies are the NGSolve mesh
materials body0, body1, … (mesh/ngsolve_mesh.py).
"""

from dataclasses import dataclass
from typing import Any

import ngsolve as ng

from fieldline_engine.core.numbers import finite_number
from fieldline_engine.core.regions import region_index
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel


@dataclass
class MaterialTable:
    body_names: list[str]
    rows: list[dict[str, float]]  # per body: property name → value

    def value(self, body: int, prop: str) -> float:
        return self.rows[body][prop]

    def column(self, prop: str) -> list[float]:
        return [row[prop] for row in self.rows]

    def coefficient(self, mesh: ng.Mesh, prop: str) -> ng.CoefficientFunction:
        """The property as a piecewise-constant coefficient over the bodies."""
        values = self.column(prop)
        return mesh.MaterialCF({f"body{i}": v for i, v in enumerate(values)}, default=values[0])

    def require_positive(self, *props: str) -> None:
        for prop in props:
            for i, row in enumerate(self.rows):
                if not row[prop] > 0:
                    raise InvalidInput(
                        f"Material of body '{self.body_names[i]}': {prop} must be positive (got {row[prop]:g})."
                    )


def material_table(model: TetModel, config: dict[str, Any], defaults: dict[str, float]) -> MaterialTable:
    """Each body's value of every property in `defaults`: its `bodyMaterials` entry's value, else the default."""
    rows = [dict(defaults) for _ in model.region_names]
    for entry in config.get("bodyMaterials") or []:
        i = region_index(model, entry.get("region"), "Body material")
        for prop in defaults:
            value = entry.get(prop)
            if value is None:
                continue
            rows[i][prop] = finite_number(value, f"Body material '{entry.get('region')}': {prop}")
    return MaterialTable(list(model.region_names), rows)
