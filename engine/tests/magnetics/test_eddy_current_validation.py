"""Eddy-current validation against closed forms and the TEAM 7 measurements (docs/magnetics.md). Each case
prints its error."""

import math
import time

import numpy as np
import pytest
from validation.recorder import RECORDER

from fieldline_engine import analyses  # noqa: F401 — registers the families
from fieldline_engine.core.registry import analysis_for
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.induction_billet import (
    billet_slice_mesh_data,
    centre_temperature_rise,
    power_per_length,
)
from fieldline_engine.testing.round_wire import (
    MU0,
    ac_resistance_ratio,
    frequency_for,
    internal_impedance_per_length,
    wire_mesh_data,
)
from fieldline_engine.testing.team7 import PLATE_SIGMA, build_team7_mesh, measurements


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
    q = sol.quantities
    assert abs(q["current_A"]["wire"] - current) < 1e-9 * current
    r_dc = length / (sigma * math.pi * radius**2)
    ratio = q["resistance_ohm"]["wire"] / r_dc
    RECORDER.record_solution("em-eddy-round-wire-resistance", ratio, ac_resistance_ratio(4.0), sol, seconds)
    # The loss integral and the source's resistance agree (Poynting): P = ½ R I².
    power = 0.5 * q["resistance_ohm"]["wire"] * current**2
    assert abs(q["loss_W"]["wire"] - power) < 1e-9 * power
    x_exact = (
        internal_impedance_per_length(radius, sigma, frequency).imag
        + 2 * math.pi * frequency * MU0 * math.log(2.0) / (2 * math.pi)
    ) * length
    RECORDER.record_solution(
        "em-eddy-round-wire-reactance", q["reactance_ohm"]["wire"], x_exact, sol, seconds
    )


@pytest.fixture(scope="module")
def team7_model():
    return model_from_mesh_data(build_team7_mesh(plate_mm=20.0, coil_mm=30.0, air_mm=120.0).mesh_data)


@pytest.mark.parametrize("frequency", [50, 200])
def test_team7_bz_along_a1_b1_against_the_measurements(team7_model, frequency):
    points, measured = measurements(frequency)
    config = {
        "analysisType": "eddy-current",
        "frequency": frequency,
        "meshOrder": 2,
        "bodyMaterials": [{"region": "plate", "conductivity": PLATE_SIGMA}],
        # 2742 AT, maximal at ωt = 0, anticlockwise seen from +z
        "coils": [{"name": "coil", "region": "coil", "turns": 2742, "current": 1.0, "axis": [0, 0, 1]}],
        "probePoints": [{"name": f"x{k}", "point": (p * 1e3).tolist()} for k, p in enumerate(points)],
    }
    started = time.perf_counter()
    sol = analysis_for(config).solve(team7_model, config, SILENT)
    seconds = time.perf_counter() - started
    probes = sol.quantities["probes"]
    bz = np.array(
        [p["magnetic_flux_density_T"][2] + 1j * p["magnetic_flux_density_imag_T"][2] for p in probes]
    )
    scale = float(np.max(np.abs(measured)))
    error = np.abs(bz - measured)
    rms = float(np.sqrt(np.mean(error**2)))
    print(
        f"TEAM 7 {frequency} Hz, Bz along A1–B1 (1e-4 T): x mm, measured 0°/90°, computed 0°/90°, |error|/peak"
    )
    for p, m, b, e in zip(points, measured, bz, error, strict=True):
        print(
            f"  {p[0] * 1e3:5.0f}  {m.real * 1e4:7.2f} {-m.imag * 1e4:6.2f}  {b.real * 1e4:7.2f} {-b.imag * 1e4:6.2f}  {e / scale:.3f}"
        )
    RECORDER.record(
        f"em-eddy-team7-{frequency}hz",
        value=rms,
        reference=scale,
        error=rms / scale,
        unknowns=sol.solver_info["matrix_size"],
        order=2,
        seconds=seconds,
    )


def test_induction_heating_of_a_billet_in_a_long_solenoid():
    radius, sigma, frequency, kappa, turns, current, height = 0.01, 5e6, 5000.0, 40.0, 10, 20.0, 2e-3
    data, groups = billet_slice_mesh_data(height_mm=height * 1e3)
    em = {
        "frequency": frequency,
        "meshOrder": 2,
        "bodyMaterials": [{"region": "billet", "conductivity": sigma, "thermalConductivity": kappa}],
        "coils": [{"name": "coil", "region": "coil", "turns": turns, "current": current, "axis": [0, 0, 1]}],
        "magneticBoundaries": [{"faces": groups["outer"], "type": "flux-normal"}],
    }
    h0 = turns * current / height
    model, sol, seconds = run(data, {"analysisType": "eddy-current", **em})
    exact = power_per_length(h0, radius, sigma, frequency)
    RECORDER.record_solution(
        "em-eddy-billet-power", sol.quantities["loss_W"]["billet"] / height, exact, sol, seconds
    )

    thermal = {
        "analysisType": "thermal",
        "inductionHeating": True,
        **em,
        "temperatureConditions": [{"faces": groups["billet_skin"], "temperature": 300.0, "name": "skin"}],
    }
    _, heated, seconds = run(data, thermal)
    centre = float(
        heated.field("temperature").values[np.argmin(np.linalg.norm(model.vertices[:, :2], axis=1))]
    )
    rise = centre_temperature_rise(h0, radius, sigma, frequency, kappa)
    RECORDER.record_solution("thermal-induction-billet-centre", centre - 300.0, rise, heated, seconds)
