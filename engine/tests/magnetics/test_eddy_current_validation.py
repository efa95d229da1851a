"""Eddy-current validation against closed forms and the TEAM 7 measurements (docs/magnetics.md). Each case
prints its error."""

import math
import time

from validation.recorder import RECORDER

from fieldline_engine import analyses  # noqa: F401 — registers the families
from fieldline_engine.core.registry import analysis_for
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.round_wire import (
    MU0,
    ac_resistance_ratio,
    frequency_for,
    internal_impedance_per_length,
    wire_mesh_data,
)


def run(mesh_data, config):
    model = model_from_mesh_data(mesh_data)
    started = time.perf_counter()
    solution = analysis_for(config).solve(model, config, SILENT)
    return model, solution, time.perf_counter() - started


def test_round_wire_ac_resistance_and_reactance_at_four_skin_depths():
    radius, length, sigma, current = 1e-3, 0.5e-3, 5.8e7, 2.0
    frequency = frequency_for(4.0, radius, sigma)
    data, _ = wire_mesh_data(radius_mm=1.0, length_mm=0.5, sleeve_mm=2.0, wire_h_mm=0.25)
    config = {
        "analysisType": "eddy-current",
        "frequency": frequency,
        "meshOrder": 2,
        "bodyMaterials": [{"region": "wire", "conductivity": sigma}],
        "solidConductors": [{"region": "wire", "current": current}],
    }
    _, sol, seconds = run(data, config)
    wire = sol.quantities["solid_conductors"]["wire"]
    assert abs(wire["current_A"] - current) < 1e-9 * current
    r_dc = length / (sigma * math.pi * radius**2)
    ratio = wire["resistance_ohm"] / r_dc
    RECORDER.record_solution("em-eddy-round-wire-resistance", ratio, ac_resistance_ratio(4.0), sol, seconds)
    # The loss integral and the source's power agree (Poynting), and both give the same resistance.
    assert abs(sol.quantities["loss_W"]["wire"] - wire["power_W"]) < 1e-9 * wire["power_W"]
    x_exact = (
        internal_impedance_per_length(radius, sigma, frequency).imag
        + 2 * math.pi * frequency * MU0 * math.log(2.0) / (2 * math.pi)
    ) * length
    RECORDER.record_solution("em-eddy-round-wire-reactance", wire["reactance_ohm"], x_exact, sol, seconds)
