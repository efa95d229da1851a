"""The time schemes' exact frequency warping, and ringing frequencies corrected for it.

A lossless mode u'' = −ω²u stepped with Δt rings at a discrete frequency ω_d, not ω, and for two of the
schemes the map is known in closed form (apply the scheme to e^{jω_d·nΔt}):
- newmark (average acceleration = trapezoidal rule = bilinear transform): tan(ω_dΔt/2) = ωΔt/2, so
  ω = (2/Δt)·tan(ω_dΔt/2); the recorded frequency is too low by ≈ (ωΔt)²/12.
- explicit (central differences): sin(ω_dΔt/2) = ωΔt/2, so ω = (2/Δt)·sin(ω_dΔt/2); too high by ≈ (ωΔt)²/24.
- implicit (BDF2) also damps the mode, so its map needs the discrete decay too: not corrected here.
Undoing the map removes the scheme's time-discretisation error from a ringing frequency exactly, leaving
the spatial (mesh) error, so a resonance can be read from a run with a much larger Δt. The same holds for
a ratio of two spectra of one run (a reflection, an echo's delay): `echo_group_delay`.
"""

import math

import numpy as np

from fieldline_engine.em.transient.spectrum import Echo, dtft, resonance_peaks
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


def echo_group_delay(
    times: np.ndarray,
    reference: np.ndarray,
    signal: np.ndarray,
    scheme: str,
    f_max: float,
    points: int = 64,
) -> Echo:
    """Delay of `signal` behind `reference` as the group delay of their spectral ratio over (0, f_max]
    (true frequencies), with the scheme's warping undone: the ratio recorded at f_d is the semi-discrete
    model's at f = continuous_frequency(f_d). Both signals come from the same linear run, so for Newmark
    (the bilinear transform) this takes the time step's dispersion out of the delay and leaves the
    mesh's, as `ringing_frequencies` does for a resonance; a cross-correlation (spectrum.echo_delay)
    keeps it. The phase slope is fitted by least squares weighted by the reference's power; the gain
    is the weighted mean of the ratio's magnitude, negative for an inverted echo."""
    dt = float(times[1] - times[0])
    f = np.linspace(f_max / points, f_max, points)
    f_rec = discrete_frequency(f, dt, scheme)
    ref = dtft(times, reference, f_rec)
    ratio = dtft(times, signal, f_rec) / ref
    weight = np.abs(ref) ** 2
    sign = -1.0 if ratio[0].real < 0 else 1.0
    phase = np.unwrap(np.angle(sign * ratio))
    root_w = np.sqrt(weight / weight.sum())
    design = np.stack([2 * math.pi * f, np.ones_like(f)], axis=1) * root_w[:, None]
    slope, _ = np.linalg.lstsq(design, phase * root_w, rcond=None)[0]
    gain = sign * float(np.sum(weight * np.abs(ratio)) / weight.sum())
    return Echo(float(-slope), gain)


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
