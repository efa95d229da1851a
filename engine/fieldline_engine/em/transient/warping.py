"""The time schemes' exact frequency warping, and ringing frequencies corrected for it.

A lossless mode u'' = −ω²u stepped with Δt rings at a discrete frequency ω_d, not ω, and for two of the
schemes the map is known in closed form (apply the scheme to e^{jω_d·nΔt}):
- newmark (average acceleration = trapezoidal rule = bilinear transform): tan(ω_dΔt/2) = ωΔt/2, so
  ω = (2/Δt)·tan(ω_dΔt/2); the recorded frequency is too low by ≈ (ωΔt)²/12.
- explicit (central differences): sin(ω_dΔt/2) = ωΔt/2, so ω = (2/Δt)·sin(ω_dΔt/2); too high by ≈ (ωΔt)²/24.
- implicit (BDF2) also damps the mode, so its map needs the discrete decay too: not corrected here.
Undoing the map removes the scheme's time-discretisation error from a ringing frequency exactly, leaving
the spatial (mesh) error, so a resonance can be read from a run with a much larger Δt.
"""

import math

import numpy as np

from fieldline_engine.em.transient.spectrum import resonance_peaks
from fieldline_engine.em.transient.waveforms import Waveform

WARPING_RULES = {
    "newmark": "f = tan(pi f_d dt)/(pi dt) (trapezoidal rule, exact for an undamped mode)",
    "explicit": "f = sin(pi f_d dt)/(pi dt) (central differences, exact for an undamped mode)",
}
# After a pulse's peak, the envelope exp(−((t − t0)/τ)²) is below e^-16 from t0 + 4τ on.
QUIET_AFTER_WIDTHS = 4.0
MAX_PEAKS = 5


def continuous_frequency(f_discrete: float | np.ndarray, dt: float, scheme: str) -> float | np.ndarray:
    """The frequency of the semi-discrete (space-only) model that rings at `f_discrete` under `scheme`
    with step `dt`; unchanged for schemes without a closed-form map."""
    x = math.pi * np.asarray(f_discrete, dtype=np.float64) * dt
    if scheme == "newmark":
        out = np.tan(x) / (math.pi * dt)
    elif scheme == "explicit":
        out = np.sin(x) / (math.pi * dt)
    else:
        out = np.asarray(f_discrete, dtype=np.float64)
    return float(out) if np.ndim(out) == 0 else out


def discrete_frequency(f: float | np.ndarray, dt: float, scheme: str) -> float | np.ndarray:
    """Inverse of continuous_frequency: where the scheme puts a mode of frequency `f`."""
    x = math.pi * np.asarray(f, dtype=np.float64) * dt
    if scheme == "newmark":
        out = np.arctan(x) / (math.pi * dt)
    elif scheme == "explicit":
        out = np.arcsin(np.minimum(x, 1.0)) / (math.pi * dt)
    else:
        out = np.asarray(f, dtype=np.float64)
    return float(out) if np.ndim(out) == 0 else out


def ringing_frequencies(
    times: np.ndarray,
    signal: np.ndarray,
    scheme: str,
    fmin: float,
    fmax: float,
    count: int = MAX_PEAKS,
) -> list[dict[str, float]]:
    """Spectral peaks of a free ringing signal, strongest first: the recorded frequency and the
    frequency corrected for the scheme's warping (equal where no closed form exists). The band is in
    true frequencies; it is searched at the warped ones."""
    dt = float(times[1] - times[0])
    lo, hi = discrete_frequency(fmin, dt, scheme), discrete_frequency(fmax, dt, scheme)
    peaks = resonance_peaks(times, signal, lo, hi, count=count)
    return [
        {
            "frequency_hz": continuous_frequency(f, dt, scheme),
            "recorded_frequency_hz": f,
            "magnitude": m,
        }
        for f, m in peaks
    ]


def probe_resonances(
    run_times: np.ndarray,
    probe_e: dict[str, np.ndarray],
    scheme: str,
    waveform: Waveform,
    band: tuple[float, float],
) -> dict | None:
    """Per probe, the ringing after a pulse has died out (the E component with the most energy there):
    what a user reads resonances from. None for a sinusoidal drive or when too little of the run is left."""
    if waveform.shape == "sinusoidal":
        return None
    quiet = run_times >= waveform.delay + QUIET_AFTER_WIDTHS * waveform.width
    if quiet.sum() < 32:
        return None
    t = run_times[quiet]
    probes = []
    for name, e in probe_e.items():
        tail = np.asarray(e)[quiet]
        component = int(np.argmax((tail * tail).sum(axis=0)))
        if not np.any(tail[:, component]):
            continue
        peaks = ringing_frequencies(
            t, tail[:, component], scheme, max(band[0], 1.0 / (t[-1] - t[0])), band[1]
        )
        probes.append({"probe": name, "component": "xyz"[component], "peaks": peaks})
    return {
        "listen_from_s": float(t[0]),
        "band_hz": [float(band[0]), float(band[1])],
        "warping": WARPING_RULES.get(scheme, f"{scheme}: no closed-form correction; frequencies as recorded"),
        "corrected": scheme in WARPING_RULES,
        "probes": probes,
    }
