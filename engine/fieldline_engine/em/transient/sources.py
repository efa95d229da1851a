"""Excitations of the time-domain solver and the source term f(t) = Σ_k w_k·ġ(t, φ_k)·b_k they add up to.

Wave ports reuse the frequency-domain ports' modal profiles (em/ports): the port face is a
one-way (matched) boundary for its mode, n×H = Y(2E_inc − E_t), which in the E-wave equation adds the
damping term Y∮E_t·W_t and the source 2Y∮∂E_inc/∂t·W_t. For a TEM port Y = 1/η of the filling is exact
at every frequency; a TE/TM mode's wave impedance depends on frequency, so the port is matched at the
pulse's carrier f0 (the reflection elsewhere, |Z(f) − Z(f0)|/|Z(f) + Z(f0)|, is reported per port).
Amplitudes follow the frequency-domain ports: `amplitude` is √W (a sinusoid of amplitude 1 carries 1 W
of incident power; a pulse has the same peak field), `phase` in degrees shifts the carrier.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import ngsolve as ng
import numpy as np

from fieldline_engine.em.constants import C0, ETA0, MU0
from fieldline_engine.em.fullwave.sparameters import port_voltage_weight
from fieldline_engine.em.ports.wave_port import WavePort
from fieldline_engine.em.transient.waveforms import Waveform
from fieldline_engine.errors import InvalidInput


@dataclass
class TimeDomainPort:
    port: WavePort
    impedance: float  # Ω, the wave impedance the port absorbs with
    matched_frequency: float | None  # Hz; None for TEM (matched at every frequency)
    norm: float  # N = ∮ e·e dA of the mode profile e
    scale: float  # √(2Z/N): the modal field amplitude of 1 √W
    overlap: np.ndarray  # ∮ e·W_t (b for the source; x·overlap/N is the modal amplitude of x)
    voltage: np.ndarray | None  # ∮ w_V·W_t: the port voltage functional
    mode_voltage: float | None  # voltage of the unit profile e

    @property
    def amplitude(self) -> float:
        return float(self.port.amplitude)

    @property
    def phase(self) -> float:
        return math.radians(self.port.phase_deg)

    def incident(
        self, waveform: Waveform, t: np.ndarray, amplitude: float | None = None, phase: float | None = None
    ) -> np.ndarray:
        """Incident modal amplitude (in units of the profile e) at the port face; `amplitude` (√W) and
        `phase` (radians) default to the port's own."""
        amp = self.amplitude if amplitude is None else amplitude
        return amp * self.scale * waveform.value(t, self.phase if phase is None else phase)

    def reflection_at(self, frequency: float) -> float:
        """|Γ| of the matched boundary for this mode at `frequency` (0 for TEM)."""
        if self.matched_frequency is None or frequency <= 0:
            return 0.0
        z = self.port.propagation(2 * math.pi * frequency / C0).wave_impedance
        return float(abs((z - self.impedance) / (z + self.impedance)))

    def describe(self) -> dict[str, object]:
        out = self.port.describe()
        out.update(
            absorbing_impedance_ohm=self.impedance,
            matched_frequency_hz=self.matched_frequency,
            field_per_sqrt_watt=self.scale,
        )
        return out


def time_domain_port(port: WavePort, fes: ng.FESpace, waveform: Waveform) -> TimeDomainPort:
    mesh = fes.mesh
    region = mesh.Boundaries(port.label)
    e = port.mode.cf()
    norm = float(ng.Integrate(e * e, mesh, ng.BND, definedon=region, order=10))
    matched: float | None = None
    if port.mode.family == "TEM":
        z = complex(ETA0 * np.sqrt(port.mu_r / port.eps_r))
    else:
        f0 = waveform.frequency
        fc = float(C0 * port.mode.cutoff_wavenumber / (2 * math.pi * math.sqrt(abs(port.eps_r * port.mu_r))))
        if f0 <= fc:
            raise InvalidInput(
                f"Wave port {port.port_id}: its {port.mode.name} mode propagates only above {fc / 1e9:.4g} GHz; "
                "a time-domain run needs a carrier above that (pulseShape modulated_gaussian or sinusoidal, "
                "pulseFrequency above the cutoff), where the port is matched."
            )
        z = port.propagation(2 * math.pi * f0 / C0).wave_impedance
        matched = f0
    impedance = float(abs(z))
    _, w = fes.TnT()
    overlap = _boundary_vector(fes, e * w.Trace(), port.label)
    weight = port_voltage_weight(port)
    voltage = mode_voltage = None
    if weight is not None:
        voltage = _boundary_vector(fes, weight * w.Trace(), port.label)
        mode_voltage = float(ng.Integrate(e * weight, mesh, ng.BND, definedon=region, order=10))
    scale = math.sqrt(2 * impedance / norm)
    return TimeDomainPort(port, impedance, matched, norm, scale, overlap, voltage, mode_voltage)


def _boundary_vector(fes: ng.FESpace, integrand, label: str) -> np.ndarray:
    lf = ng.LinearForm(fes)
    lf += integrand * ng.ds(label, bonus_intorder=4)
    lf.Assemble()
    return lf.vec.FV().NumPy().copy()


@dataclass
class VolumeCurrent:
    """J(x, t) = density·g(t, φ) inside the selected bodies (and box, if given); A/m²."""

    density: tuple[float, float, float]
    phase_deg: float = 0.0
    indicator: ng.CoefficientFunction | None = None  # 1 inside the source, 0 outside
    description: dict[str, object] = field(default_factory=dict)

    def vector(self, fes: ng.FESpace) -> np.ndarray:
        _, w = fes.TnT()
        j = ng.CF(self.density)
        integrand = j * w if self.indicator is None else self.indicator * (j * w)
        lf = ng.LinearForm(fes)
        lf += integrand * ng.dx(bonus_intorder=2)
        lf.Assemble()
        return lf.vec.FV().NumPy().copy()


@dataclass
class SourceTerm:
    """One part of f(t) = weight·ġ(t, phase)·vector."""

    vector: np.ndarray
    weight: float
    phase: float  # radians
    name: str


def make_forcing(
    columns: list[list[SourceTerm]],
    waveform: Waveform,
    dt: float | None = None,
    steps: int | None = None,
    rows: np.ndarray | None = None,
) -> Callable[[float, np.ndarray], None]:
    """f(t) for a block of excitations: column j of the output is Σ over columns[j]'s terms. All term
    vectors sit in one dense (ndof, terms) matrix, so each step is one small matrix product. With `dt`
    and `steps` the waveform's coefficients at every t = n·Δt (n ≤ steps + 1, where the schemes call)
    are tabulated once, vectorized, instead of evaluated in Python every step. `rows`: the DOFs the
    output holds (the schemes step the free ones)."""
    terms = [(j, t) for j, col in enumerate(columns) for t in col]
    basis = (
        np.column_stack([t.vector if rows is None else t.vector[rows] for _, t in terms]) if terms else None
    )
    coef = np.zeros((len(terms), len(columns)))
    table = None
    if basis is not None and dt is not None and steps is not None:
        grid = np.arange(steps + 2) * dt
        table = np.zeros((steps + 2, len(terms), len(columns)))
        for i, (j, term) in enumerate(terms):
            table[:, i, j] = term.weight * np.asarray(waveform.derivative(grid, term.phase), dtype=float)

    def forcing(t: float, out: np.ndarray) -> None:
        if basis is None:
            out[...] = 0.0
            return
        if table is not None:
            k = round(t / dt)
            if 0 <= k < len(table) and k * dt == t:
                np.matmul(basis, table[k], out=out)
                return
        for i, (j, term) in enumerate(terms):
            coef[i, j] = term.weight * float(waveform.derivative(t, term.phase))
        np.matmul(basis, coef, out=out)

    return forcing


def port_source(
    tdp: TimeDomainPort, amplitude: float | None = None, phase: float | None = None
) -> SourceTerm:
    """2·μ0·Y·a·scale·ġ·∮e·W (the equation is scaled by μ0); amplitude/phase default to the port's own."""
    amp = tdp.amplitude if amplitude is None else amplitude
    weight = 2 * MU0 / tdp.impedance * amp * tdp.scale
    return SourceTerm(tdp.overlap, weight, tdp.phase if phase is None else phase, f"port {tdp.port.port_id}")


def current_source(current: VolumeCurrent, fes: ng.FESpace, index: int) -> SourceTerm:
    """−μ0·∂J/∂t."""
    return SourceTerm(current.vector(fes), -MU0, math.radians(current.phase_deg), f"current {index + 1}")
