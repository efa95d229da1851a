"""The excitation waveforms: derivatives match the values, runs start from rest, spectra bands."""

import math

import numpy as np
import pytest

from fieldline_engine.em.transient.waveforms import Waveform, waveform_from_config
from fieldline_engine.errors import InvalidInput


@pytest.mark.parametrize(
    "wf",
    [
        Waveform("gaussian", 40e-12, 200e-12, 0.0),
        Waveform("modulated_gaussian", 0.1e-9, 0.5e-9, 8e9),
        Waveform("sinusoidal", 0.0, 0.0, 5e9, ramp=0.4e-9),
    ],
)
def test_derivative_matches_finite_differences(wf):
    t = np.linspace(0, 1.2e-9, 4001)
    h = 1e-15
    for phase in (0.0, 1.0):
        numeric = (wf.value(t + h, phase) - wf.value(t - h, phase)) / (2 * h)
        exact = wf.derivative(t, phase)
        err = np.max(np.abs(numeric - exact)) / np.max(np.abs(exact))
        print(f"{wf.shape} phase {phase}: max relative derivative error {err:.2e}")
        assert err < 1e-5


def test_automatic_pulse_starts_at_rest_and_peaks_at_a_third():
    wf = waveform_from_config({}, 1e-9)
    assert wf.shape == "gaussian" and math.isclose(wf.delay, 1e-9 / 3)
    assert abs(float(wf.value(0.0))) < 2e-11 and math.isclose(float(wf.value(wf.delay)), 1.0)
    lo, hi = wf.band(1e-3)
    assert lo == 0 and math.isclose(float(np.exp(-((math.pi * hi * wf.width) ** 2))), 1e-3)


def test_sinusoid_reaches_the_phasor_steady_state():
    wf = waveform_from_config({"pulseShape": "sinusoidal", "pulseFrequency": 2e9}, 5e-9)
    t = np.array([3e-9, 3.1e-9])
    assert np.allclose(wf.value(t, 0.5), np.cos(2 * math.pi * 2e9 * t + 0.5))
    assert float(wf.value(0.0)) == 0.0 and float(wf.derivative(0.0)) == 0.0


def test_carrier_is_required_for_modulated_pulses():
    with pytest.raises(InvalidInput, match="pulseFrequency"):
        waveform_from_config({"pulseShape": "modulated_gaussian"}, 1e-9)
    with pytest.raises(InvalidInput, match="pulseShape"):
        waveform_from_config({"pulseShape": "square"}, 1e-9)
