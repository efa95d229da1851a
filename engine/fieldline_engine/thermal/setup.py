"""The thermal keys of the config (docs/thermal.md), checked and resolved onto the model's faces and bodies.

Temperatures are in kelvin. `temperatureConditions: [{faces, temperature}]` fix T; `neumannConditions:
[{faces, flux}]` is the spec's generic Neumann condition and here a heat flux into the body (W/m²);
`convectionConditions: [{faces, coefficient, ambientTemperature}]` (W/m²·K, K); `radiationConditions:
[{faces, emissivity, ambientTemperature}]`; `heatSources: [{region, power | powerDensity}]` (W per body or
W/m³). Faces without a condition are insulated. A face carries one condition (core/regions.py).
"""

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fieldline_engine.core.materials import MaterialTable, material_table
from fieldline_engine.core.numbers import finite_number
from fieldline_engine.core.regions import FaceLabeller, region_index
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel

DEFAULT_THERMAL_CONDUCTIVITY = 0.6  # W/(m·K), water, matching the spec's density and heat capacity defaults
DEFAULT_INITIAL_TEMPERATURE = 293.15  # K


@dataclass
class FixedTemperature:
    label: str
    name: str
    temperature: float


@dataclass
class HeatFlux:
    label: str
    name: str
    flux: float  # W/m², into the body


@dataclass
class Convection:
    label: str
    name: str
    coefficient: float  # W/(m²·K)
    ambient: float  # K


@dataclass
class Radiation:
    label: str
    name: str
    emissivity: float
    ambient: float  # K


@dataclass
class HeatSource:
    body: int
    name: str
    power: float | None = None  # W over the body
    density: float | None = None  # W/m³


@dataclass
class ThermalSetup:
    face_labels: np.ndarray
    fixed: list[FixedTemperature] = field(default_factory=list)
    fluxes: list[HeatFlux] = field(default_factory=list)
    convection: list[Convection] = field(default_factory=list)
    radiation: list[Radiation] = field(default_factory=list)
    sources: list[HeatSource] = field(default_factory=list)
    joule_heating: bool = False
    induction_heating: bool = False

    @property
    def determined(self) -> bool:
        """A steady temperature is fixed only where heat can leave: a fixed T, convection or radiation."""
        return bool(self.fixed or self.convection or self.radiation)


def _temperature(value: Any, what: str, allow_zero: bool = False) -> float:
    t = finite_number(value, what)
    if t < 0 or (t == 0 and not allow_zero):
        raise InvalidInput(
            f"{what} is {t:g} K: temperatures are absolute (kelvin) and must be above 0 K "
            "(20 °C is 293.15 K)."
        )
    return t


def thermal_materials(model: TetModel, config: dict[str, Any]) -> MaterialTable:
    table = material_table(
        model,
        config,
        {
            "thermalConductivity": finite_number(
                config.get("thermalConductivity", DEFAULT_THERMAL_CONDUCTIVITY), "thermalConductivity"
            ),
            "density": finite_number(config.get("density", 1000.0), "density"),
            "heatCapacity": finite_number(config.get("heatCapacity", 4186.0), "heatCapacity"),
        },
    )
    table.require_positive("thermalConductivity", "density", "heatCapacity")
    return table


def thermal_setup(model: TetModel, config: dict[str, Any]) -> ThermalSetup:
    lab = FaceLabeller(model)
    setup = ThermalSetup(
        face_labels=lab.labels,
        joule_heating=bool(config.get("jouleHeating")),
        induction_heating=bool(config.get("inductionHeating")),
    )
    for k, c in enumerate(config.get("temperatureConditions") or []):
        what = c.get("name") or f"Temperature condition {k + 1}"
        label = f"temperature_{k}"
        t = _temperature(c.get("temperature"), f"{what}: temperature")
        lab.claim(c.get("faces") or [], label, what)
        setup.fixed.append(FixedTemperature(label, what, t))
    for k, c in enumerate(config.get("neumannConditions") or []):
        what = c.get("name") or f"Heat flux {k + 1}"
        label = f"flux_{k}"
        flux = finite_number(c.get("flux", 0.0), f"{what}: flux")
        lab.claim(c.get("faces") or [], label, what)
        setup.fluxes.append(HeatFlux(label, what, flux))
    for k, c in enumerate(config.get("convectionConditions") or []):
        what = c.get("name") or f"Convection {k + 1}"
        h = finite_number(c.get("coefficient"), f"{what}: coefficient")
        if h <= 0:
            raise InvalidInput(f"{what}: the convection coefficient must be positive (W/m²·K), got {h:g}.")
        ambient = _temperature(c.get("ambientTemperature"), f"{what}: ambientTemperature")
        label = f"convection_{k}"
        lab.claim(c.get("faces") or [], label, what)
        setup.convection.append(Convection(label, what, h, ambient))
    for k, c in enumerate(config.get("radiationConditions") or []):
        what = c.get("name") or f"Radiation {k + 1}"
        eps = finite_number(c.get("emissivity"), f"{what}: emissivity")
        if not 0 < eps <= 1:
            raise InvalidInput(f"{what}: emissivity must be above 0 and at most 1, got {eps:g}.")
        # Radiating to deep space (0 K) is allowed; below it is not.
        ambient = _temperature(
            c.get("ambientTemperature", 0.0), f"{what}: ambientTemperature", allow_zero=True
        )
        label = f"radiation_{k}"
        lab.claim(c.get("faces") or [], label, what)
        setup.radiation.append(Radiation(label, what, eps, ambient))
    for k, s in enumerate(config.get("heatSources") or []):
        what = s.get("name") or f"Heat source {k + 1}"
        body = region_index(model, s.get("region", 0), what)
        power, density = s.get("power"), s.get("powerDensity")
        if (power is None) == (density is None):
            raise InvalidInput(f"{what}: give either power (W for the body) or powerDensity (W/m³).")
        setup.sources.append(
            HeatSource(
                body,
                what,
                power=None if power is None else finite_number(power, f"{what}: power"),
                density=None if density is None else finite_number(density, f"{what}: powerDensity"),
            )
        )
    return setup


@dataclass
class TimeStepping:
    scheme: str  # "backward-euler" | "crank-nicolson"
    theta: float
    time_step: float
    end_time: float
    steps: int
    initial: float  # K


# The spec's time schemes (spec 001 §5) for heat conduction: implicit → backward Euler (L-stable: no
# oscillation at sharp initial fronts), newmark → Crank–Nicolson (second order: Newmark's trapezoidal rule).
SCHEMES = {"implicit": ("backward-euler", 1.0), "newmark": ("crank-nicolson", 0.5)}


def time_stepping(config: dict[str, Any]) -> TimeStepping:
    scheme = str(config.get("timeScheme") or "newmark")
    if scheme not in SCHEMES:
        raise InvalidInput(
            f"timeScheme '{scheme}' is not available for heat conduction: use implicit (backward Euler) or "
            "newmark (Crank–Nicolson). Explicit stepping would need steps below h²/2α, far too many for "
            "a thermal run."
        )
    dt = finite_number(config.get("timeStep"), "timeStep")
    end = finite_number(config.get("endTime"), "endTime")
    if dt <= 0 or end <= 0:
        raise InvalidInput("timeStep and endTime must be positive (seconds).")
    if dt > end:
        raise InvalidInput(f"timeStep ({dt:g} s) is larger than endTime ({end:g} s).")
    steps = int(round(end / dt))
    if steps > 100_000:
        raise InvalidInput(f"endTime / timeStep is {steps} steps; at most 100 000 are allowed.")
    name, theta = SCHEMES[scheme]
    initial = _temperature(
        config.get("initialTemperature", DEFAULT_INITIAL_TEMPERATURE), "initialTemperature"
    )
    return TimeStepping(name, theta, dt, steps * dt, steps, initial)
