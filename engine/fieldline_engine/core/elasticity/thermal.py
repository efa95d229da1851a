"""The thermal load of linear elasticity: a temperature T against the stress-free `referenceTemperature` T_ref
strains each body by α (T − T_ref) in every direction (α its `thermalExpansion`, 1/K).

σ = C(ε − ε_th) with ε_th = α ΔT I, so the load is f(v) = ∫ C ε_th : ε(v) = ∫ (3λ + 2μ) α ΔT div v and the
stress the results report subtracts (3λ + 2μ) α ΔT I. The temperature is `temperatureLoad: {uniform: T}`,
or a field the run was given (a coupled job's thermal step, or a chained thermal job's `temperature`,
core/given_fields.py) as the piecewise-linear interpolant of its vertex values.
"""

from dataclasses import dataclass
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.given_fields import given_field, vertex_cf, vertex_values
from fieldline_engine.core.numbers import finite_number
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel

DEFAULT_REFERENCE_TEMPERATURE = 293.15  # K, 20 °C


@dataclass
class ThermalLoad:
    reference: float  # K, the stress-free temperature
    uniform: float | None = None  # K
    vertex_temperature: np.ndarray | None = None  # K per vertex (a given field)
    source: str = "uniform"  # "uniform" or the given field's origin

    def temperature(self, mesh: ng.Mesh) -> ng.CoefficientFunction:
        if self.vertex_temperature is not None:
            return vertex_cf(mesh, self.vertex_temperature)
        return ng.CF(self.uniform)

    @property
    def range(self) -> tuple[float, float]:
        if self.vertex_temperature is not None:
            return float(np.min(self.vertex_temperature)), float(np.max(self.vertex_temperature))
        return float(self.uniform), float(self.uniform)


def _kelvin(value: Any, what: str) -> float:
    t = finite_number(value, what)
    if t <= 0:
        raise InvalidInput(f"{what} is {t:g} K: temperatures are absolute (kelvin) and must be above 0 K.")
    return t


def thermal_load(model: TetModel, config: dict[str, Any]) -> ThermalLoad | None:
    """The run's thermal load: a given `temperature` field, else `temperatureLoad.uniform`, else none."""
    reference = _kelvin(
        config.get("referenceTemperature", DEFAULT_REFERENCE_TEMPERATURE), "referenceTemperature"
    )
    given = given_field(config, "temperature")
    spec = config.get("temperatureLoad")
    if given is not None:
        if spec:
            raise InvalidInput(
                "Give the temperature either as temperatureLoad or from another run (fieldsFrom), not both."
            )
        values = vertex_values(given, model.nv, "Thermal load")
        if np.any(values <= 0):
            raise InvalidInput("Thermal load: the given temperature field has values at or below 0 K.")
        return ThermalLoad(reference, vertex_temperature=values, source="field")
    if not spec:
        return None
    if not isinstance(spec, dict) or spec.get("uniform") is None:
        raise InvalidInput('temperatureLoad needs a uniform temperature: {"uniform": T} in kelvin.')
    return ThermalLoad(reference, uniform=_kelvin(spec["uniform"], "temperatureLoad.uniform"))


def eigen_stress(mesh: ng.Mesh, load: ThermalLoad, mu, lam, alpha) -> ng.CoefficientFunction:
    """(3λ + 2μ) α (T − T_ref) I: the stress that holding the thermal strain would take."""
    delta = load.temperature(mesh) - load.reference
    return (3 * lam + 2 * mu) * alpha * delta * ng.Id(3)


def require_expansion(load: ThermalLoad, alphas: list[float], body_names: list[str]) -> None:
    """A thermal load on bodies that do not expand would do nothing: refused, naming the key to set."""
    if not any(a != 0 for a in alphas):
        raise InvalidInput(
            "The model has a thermal load but no body expands: set thermalExpansion (1/K) for the bodies "
            f"({', '.join(body_names)}), or give them a library material that lists it."
        )
