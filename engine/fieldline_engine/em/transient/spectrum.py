"""Signal processing of the recorded time signals: DTFTs, echo delays, resonance peaks and the
broadband S-parameter estimate of a pulse run. Phasors follow the engineering convention: the
transform is X(f) = Σ x(t_n)·e^{−j2πf·t_n}·Δt, so x(t) = Re(X e^{jωt}) and a delay τ gives e^{−jωτ}.
"""

import math
from dataclasses import dataclass

import numpy as np


def dtft(times: np.ndarray, signal: np.ndarray, freqs: np.ndarray) -> np.ndarray:
    dt = float(times[1] - times[0])
    phase = np.exp(-2j * math.pi * np.outer(freqs, times))
    return phase @ np.asarray(signal, dtype=np.float64) * dt


@dataclass
class Echo:
    delay: float  # s
    gain: float  # signed amplitude ratio of the echo to the reference (−1: inverted copy)


def echo_delay(times: np.ndarray, reference: np.ndarray, signal: np.ndarray, upsample: int = 32) -> Echo:
    """Delay and signed gain of `signal` relative to `reference` from the peak of their cross-correlation
    (band-limited interpolation by zero-padding, then a parabola through the peak)."""
    n = len(times)
    dt = float(times[1] - times[0])
    size = 1 << int(math.ceil(math.log2(2 * n)))
    ref_f = np.fft.rfft(reference, size)
    sig_f = np.fft.rfft(signal, size)
    corr = np.fft.irfft(sig_f * np.conj(ref_f), size * upsample) * upsample
    lags = np.arange(size * upsample)
    lags = np.where(lags < size * upsample // 2, lags, lags - size * upsample)
    i = int(np.argmax(np.abs(corr)))
    y0, y1, y2 = corr[i - 1], corr[i], corr[(i + 1) % len(corr)]
    denom = y0 - 2 * y1 + y2
    shift = 0.5 * (y0 - y2) / denom if denom != 0 else 0.0
    delay = (lags[i] + shift) * dt / upsample
    peak = y1 - 0.25 * (y0 - y2) * shift
    return Echo(float(delay), float(peak / float(np.dot(reference, reference))))


def resonance_peaks(
    times: np.ndarray, signal: np.ndarray, fmin: float, fmax: float, pad: int = 16, count: int = 8
) -> list[tuple[float, float]]:
    """Frequencies (Hz) and magnitudes of the strongest spectral peaks in [fmin, fmax] (Hann window,
    zero-padded FFT, parabolic interpolation of the log magnitude)."""
    x = np.asarray(signal, dtype=np.float64) * np.hanning(len(signal))
    dt = float(times[1] - times[0])
    size = pad * (1 << int(math.ceil(math.log2(len(x)))))
    spec = np.abs(np.fft.rfft(x, size))
    freqs = np.fft.rfftfreq(size, dt)
    log = np.log(spec + 1e-300)
    i = np.arange(1, len(spec) - 1)
    local_max = (spec[i] >= spec[i - 1]) & (spec[i] > spec[i + 1]) & (freqs[i] >= fmin) & (freqs[i] <= fmax)
    peaks = []
    for k in i[local_max]:
        y0, y1, y2 = log[k - 1], log[k], log[k + 1]
        denom = y0 - 2 * y1 + y2
        shift = 0.5 * (y0 - y2) / denom if denom != 0 else 0.0
        peaks.append((float(freqs[k] + shift * (freqs[1] - freqs[0])), float(spec[k])))
    peaks.sort(key=lambda p: -p[1])
    return peaks[:count]
