"""Thermal validation against closed forms (docs/thermal.md). Each case prints its error."""

import math
import time

import ngsolve as ng
import numpy as np
import pytest
from netgen import occ
from validation.recorder import RECORDER

from fieldline_engine import analyses  # noqa: F401 — registers the families: Joule heating asks for EM
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane
from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve
from fieldline_engine.thermal.analysis import ThermalAnalysis, ThermalTimeAnalysis
from fieldline_engine.thermal.heat import STEFAN_BOLTZMANN


def solve(mesh, config, transient=False):
    model = model_from_mesh_data(mesh)
    started = time.perf_counter()
    analysis = ThermalTimeAnalysis() if transient else ThermalAnalysis()
    solution = analysis.solve(model, {"analysisType": analysis.analysis_type, **config}, SILENT)
    return model, solution, time.perf_counter() - started


report = RECORDER.record_solution


def balance(solution, name: str) -> float:
    err = solution.quantities["energy_balance_error"]
    print(f"[validation] {name}: energy balance (in = out + stored) to {err:.1e}")
    return err


L, A = 0.1, 0.02


def test_slab_is_linear_and_exact_at_order_one():
    mesh = box_mesh((L, A, A), (6, 2, 2))
    k = 50.0
    model, sol, seconds = solve(
        mesh,
        {
            "meshOrder": 1,
            "thermalConductivity": k,
            "temperatureConditions": [
                {"faces": faces_on_plane(mesh, 0, 0.0), "temperature": 300.0, "name": "cold"},
                {"faces": faces_on_plane(mesh, 0, L), "temperature": 400.0, "name": "hot"},
            ],
        },
    )
    t = sol.field("temperature").values
    exact = 300.0 + 100.0 * model.vertices[:, 0] / L
    worst = int(np.argmax(np.abs(t - exact)))
    report("thermal-slab-profile", float(t[worst]), float(exact[worst]), sol, seconds, scale=100.0)
    flows = {f["condition"]: f["heat_flow_W"] for f in sol.quantities["heat_flows"]}
    q = k * A * A * 100.0 / L
    assert report("thermal-slab-flow", flows["hot"], q, sol, seconds) < 1e-9
    assert balance(sol, "slab") < 1e-9


def test_composite_wall_interface_temperature():
    mesh = box_mesh((L, A, A), (10, 2, 2))
    verts = np.asarray(mesh["vertices"])
    centroids = verts[np.asarray(mesh["tetrahedra"])].mean(axis=1)
    mesh["tetrahedron_regions"] = (centroids[:, 0] > L / 2).astype(int).tolist()
    k1, k2, t1, t2 = 1.0, 4.0, 300.0, 400.0
    model, sol, seconds = solve(
        mesh,
        {
            "meshOrder": 1,
            "bodyMaterials": [
                {"region": 0, "thermalConductivity": k1},
                {"region": 1, "thermalConductivity": k2},
            ],
            "temperatureConditions": [
                {"faces": faces_on_plane(mesh, 0, 0.0), "temperature": t1},
                {"faces": faces_on_plane(mesh, 0, L), "temperature": t2},
            ],
        },
    )
    half = L / 2
    exact = (k1 * t1 / half + k2 * t2 / half) / (k1 / half + k2 / half)
    interface = np.isclose(model.vertices[:, 0], half)
    value = float(sol.field("temperature").values[interface].mean())
    assert report("thermal-composite-wall", value, exact, sol, seconds, scale=t2 - t1) < 1e-9


def test_pin_fin_with_an_insulated_tip():
    a, fin = 0.01, 0.1
    mesh = box_mesh((fin, a, a), (20, 2, 2))
    k, h, tb, tinf = 400.0, 25.0, 373.15, 293.15
    sides = [f for axis in (1, 2) for v in (0.0, a) for f in faces_on_plane(mesh, axis, v)]
    model, sol, seconds = solve(
        mesh,
        {
            "meshOrder": 2,
            "thermalConductivity": k,
            "temperatureConditions": [{"faces": faces_on_plane(mesh, 0, 0.0), "temperature": tb}],
            "convectionConditions": [{"faces": sides, "coefficient": h, "ambientTemperature": tinf}],
        },
    )
    m = math.sqrt(h * 4 * a / (k * a * a))
    exact = tinf + (tb - tinf) / math.cosh(m * fin)
    tip = np.isclose(model.vertices[:, 0], fin)
    value = float(sol.field("temperature").values[tip].mean())
    assert report("thermal-pin-fin", value, exact, sol, seconds, scale=tb - tinf) < 0.01
    assert balance(sol, "pin fin") < 1e-6


def test_wire_heated_by_its_own_current():
    """A rod (r = 5 mm, σ = 1e4 S/m, k = 1 W/m·K) with a voltage across its ends heats by q = σ(V/L)²; its
    surface loses heat by convection h. Radially: surface rise q·r/2h, centre above surface q·r²/4k."""
    r, length, sigma, k, h, tinf = 0.005, 0.05, 1e4, 1.0, 10.0, 293.15
    rod = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, r, length)
    rod.faces.Min(occ.Z).name = "minus"
    rod.faces.Max(occ.Z).name = "plus"
    for f in rod.faces:
        if f.name in (None, ""):
            f.name = "skin"
    data, groups = mesh_data_from_ngsolve(ng.Mesh(occ.OCCGeometry(rod).GenerateMesh(maxh=0.0025)), "m")
    volts = 0.2236
    model, sol, seconds = solve(
        data,
        {
            "meshOrder": 2,
            "useCurvedGeometry": True,
            "jouleHeating": True,
            "defaultConductivity": sigma,
            "thermalConductivity": k,
            "dirichletFaceConditions": [
                {"faces": groups["minus"], "voltage": 0.0},
                {"faces": groups["plus"], "voltage": volts},
            ],
            "convectionConditions": [{"faces": groups["skin"], "coefficient": h, "ambientTemperature": tinf}],
            "probePoints": [{"name": "axis", "point": [0, 0, length / 2]}],
        },
    )
    q = sigma * (volts / length) ** 2
    xyz = model.vertices
    radius = np.hypot(xyz[:, 0], xyz[:, 1])
    t = sol.field("temperature").values
    surface = float(t[np.isclose(radius, r, rtol=1e-3)].mean())
    centre = sol.quantities["probes"][0]["temperature_K"]
    assert report("thermal-joule-surface", surface - tinf, q * r / (2 * h), sol, seconds) < 0.01
    assert (
        report(
            "thermal-joule-centre",
            centre - surface,
            q * r**2 / (4 * k),
            sol,
            seconds,
        )
        < 0.02
    )
    # Both physics in one result: the conduction fields and the temperature.
    assert {"potential", "current_density", "joule_heat_density", "temperature"} <= set(sol.fields.items)
    power = sol.quantities["source_power_W"]
    assert report("thermal-joule-power", power, q * math.pi * r**2 * length, sol, seconds) < 0.01
    assert balance(sol, "self-heated wire") < 1e-6


def test_lumped_cooling_of_a_small_copper_block():
    side = 0.01
    mesh = box_mesh((side, side, side), (2, 2, 2))
    rho, c, k, h, t0, tinf = 8960.0, 385.0, 401.0, 10.0, 373.15, 293.15
    tau = rho * c * side / (6 * h)  # ρcV/hA
    every = [f for axis in range(3) for v in (0.0, side) for f in faces_on_plane(mesh, axis, v)]
    model, sol, seconds = solve(
        mesh,
        {
            "meshOrder": 1,
            "density": rho,
            "heatCapacity": c,
            "thermalConductivity": k,
            "initialTemperature": t0,
            "timeStep": tau / 100,
            "endTime": tau,
            "timeScheme": "newmark",
            "convectionConditions": [{"faces": every, "coefficient": h, "ambientTemperature": tinf}],
            "probePoints": [{"name": "centre", "point": [side / 2] * 3}],
        },
        transient=True,
    )
    exact = tinf + (t0 - tinf) * math.exp(-1)
    value = float(sol.field("temperature").values.mean())
    assert report("thermal-lumped-cooling", value - tinf, exact - tinf, sol, seconds) < 0.005
    history = sol.extras["thermal_history"]
    assert history["probes"][0]["temperature"][0] == pytest.approx(t0) and len(history["times"]) == 101
    assert sol.animation is not None and sol.animation.axis == "time"
    assert balance(sol, "lumped cooling (transient)") < 1e-6


def test_plate_radiating_to_deep_space():
    side, thickness, q, eps = 0.1, 0.002, 1000.0, 0.8
    mesh = box_mesh((side, side, thickness), (4, 4, 1))
    model, sol, seconds = solve(
        mesh,
        {
            "meshOrder": 1,
            "thermalConductivity": 167.0,
            "neumannConditions": [{"faces": faces_on_plane(mesh, 2, thickness), "flux": q}],
            "radiationConditions": [
                {"faces": faces_on_plane(mesh, 2, 0.0), "emissivity": eps, "ambientTemperature": 0.0}
            ],
        },
    )
    exact = (q / (eps * STEFAN_BOLTZMANN)) ** 0.25
    bottom = np.isclose(model.vertices[:, 2], 0.0)
    value = float(sol.field("temperature").values[bottom].mean())
    print(f"[validation] radiation: {sol.solver_info['radiation_newton_iterations']} Newton iterations")
    assert report("thermal-radiation", value, exact, sol, seconds) < 1e-4
    assert balance(sol, "radiating plate") < 1e-6
