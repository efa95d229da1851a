"""Excitation waveforms g(t) and their time derivatives (the wave equation is driven by ∂/∂t of a source).

- gaussian:            g = cos(φ)·exp(−((t − t0)/τ)²)        (baseband; the phase can only flip its sign)
- modulated_gaussian:  g = exp(−((t − t0)/τ)²)·cos(2πf0(t − t0) + φ)
- sinusoidal:          g = r(t)·cos(2πf0·t + φ), r a raised-cosine ramp over `ramp` seconds, so the source
                       starts at rest and the steady state is Re(e^{jφ}e^{jωt}), the frequency domain's phasor.
The delay t0 defaults to 5τ, so g(0) ≈ e^{-25} ≈ 1e-11: every run starts from rest (a source that is not
at rest at t = 0 leaves a DC residual J(0) behind, since the equation only sees ∂J/∂t).
"""

import math
from dataclasses import dataclass

import numpy as np

from fieldline_engine.errors import InvalidInput

PULSE_SHAPES = ("gaussian", "modulated_gaussian", "sinusoidal")
# Automatic pulse width as a fraction of the run (the pulse then peaks at a third of it), and the
# number of carrier periods the sinusoid ramps up over.
AUTO_WIDTH_FRACTION = 1.0 / 15.0
AUTO_DELAY_WIDTHS = 5.0
SINE_RAMP_PERIODS = 2.0


@dataclass(frozen=True)
class Waveform:
    shape: str
    width: float  # τ in s (Gaussian envelopes)
    delay: float  # t0 in s (Gaussian envelopes)
    frequency: float  # carrier f0 in Hz (0 for the baseband Gaussian)
    ramp: float = 0.0  # sinusoid ramp-up time in s

    def value(self, t: np.ndarray | float, phase: float = 0.0) -> np.ndarray:
        t = np.asarray(t, dtype=np.float64)
        if self.shape == "sinusoidal":
            return self._ramp(t) * np.cos(2 * math.pi * self.frequency * t + phase)
        s = (t - self.delay) / self.width
        env = np.exp(-s * s)
        if self.shape == "gaussian":
            return math.cos(phase) * env
        return env * np.cos(2 * math.pi * self.frequency * (t - self.delay) + phase)

    def derivative(self, t: np.ndarray | float, phase: float = 0.0) -> np.ndarray:
        t = np.asarray(t, dtype=np.float64)
        w = 2 * math.pi * self.frequency
        if self.shape == "sinusoidal":
            arg = w * t + phase
            return self._ramp_derivative(t) * np.cos(arg) - self._ramp(t) * w * np.sin(arg)
        s = (t - self.delay) / self.width
        env = np.exp(-s * s)
        denv = -2 * s / self.width * env
        if self.shape == "gaussian":
            return math.cos(phase) * denv
        arg = w * (t - self.delay) + phase
        return denv * np.cos(arg) - env * w * np.sin(arg)

    def _ramp(self, t: np.ndarray) -> np.ndarray:
        if self.ramp <= 0:
            return np.where(t >= 0, 1.0, 0.0)
        x = np.clip(t / self.ramp, 0.0, 1.0)
        return 0.5 * (1 - np.cos(math.pi * x))

    def _ramp_derivative(self, t: np.ndarray) -> np.ndarray:
        if self.ramp <= 0:
            return np.zeros_like(t)
        inside = (t > 0) & (t < self.ramp)
        return np.where(inside, 0.5 * math.pi / self.ramp * np.sin(math.pi * t / self.ramp), 0.0)

    def band(self, floor: float = 1e-3) -> tuple[float, float]:
        """Frequencies (Hz) where the spectrum is above `floor` times its peak: where a pulse run says
        something about a frequency response."""
        if self.shape == "sinusoidal":
            return self.frequency, self.frequency
        half = math.sqrt(-math.log(floor)) / (math.pi * self.width)  # |G(f)| ∝ exp(−(πfτ)²)
        if self.shape == "gaussian":
            return 0.0, half
        return max(0.0, self.frequency - half), self.frequency + half

    def describe(self) -> dict[str, float | str]:
        out: dict[str, float | str] = {"shape": self.shape}
        if self.shape == "sinusoidal":
            out.update(frequency_hz=self.frequency, ramp_s=self.ramp)
        else:
            out.update(width_s=self.width, delay_s=self.delay)
            if self.shape == "modulated_gaussian":
                out["frequency_hz"] = self.frequency
        return out


def waveform_from_config(config: dict, end_time: float) -> Waveform:
    """The run's pulse from `pulseShape`, `pulseWidth`, `pulseDelay`, `pulseFrequency` (0 = automatic)."""
    shape = str(config.get("pulseShape") or "gaussian")
    if shape not in PULSE_SHAPES:
        raise InvalidInput(f"pulseShape '{shape}' is not one of {', '.join(PULSE_SHAPES)}.")
    width = _non_negative(config, "pulseWidth") or end_time * AUTO_WIDTH_FRACTION
    delay = _non_negative(config, "pulseDelay") or AUTO_DELAY_WIDTHS * width
    frequency = _non_negative(config, "pulseFrequency") or _non_negative(config, "frequency")
    if shape != "gaussian" and frequency <= 0:
        raise InvalidInput(
            f"A {shape.replace('_', ' ')} excitation needs a carrier frequency: set pulseFrequency (Hz)."
        )
    if shape == "gaussian":
        frequency = 0.0
    ramp = SINE_RAMP_PERIODS / frequency if shape == "sinusoidal" else 0.0
    return Waveform(shape, width, delay, frequency, ramp)


# Time steps per pulse width (τ) below which a Gaussian and its spectrum are not resolved (the web form's
# warning uses the same figure: web/src/environment/config/em/pulse-resolution.ts).
MIN_STEPS_PER_WIDTH = 5


def pulse_resolution_note(waveform: Waveform, time_step: float) -> str | None:
    """A note when the time step is too coarse for the pulse (qa31: the spec's default step and end time give
    the automatic width endTime/15 under one step, and the pulse's frequency response showed |S11| > 0 dB)."""
    if waveform.shape == "sinusoidal" or waveform.width >= MIN_STEPS_PER_WIDTH * time_step:
        return None
    return (
        f"The pulse is {waveform.width:.4g} s wide but the time step is {time_step:.4g} s "
        f"({waveform.width / time_step:.2g} steps per width, under {MIN_STEPS_PER_WIDTH}): the pulse is not "
        "resolved, so its fields and frequency response are not to be trusted. Use a timeStep of at most "
        f"{waveform.width / MIN_STEPS_PER_WIDTH:.4g} s, or a wider pulse (pulseWidth, or a longer endTime)."
    )


def _non_negative(config: dict, key: str) -> float:
    raw = config.get(key)
    value = float(raw) if raw is not None else 0.0
    if not math.isfinite(value) or value < 0:
        raise InvalidInput(f"{key} must be a number ≥ 0 (0 picks it automatically).")
    return value
