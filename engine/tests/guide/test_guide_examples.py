"""The in-app guide's worked examples (web/src/pages/info/guide/), run as the server runs them: the example
STEP file the guide links (web/public/examples/) meshed by the engine's `mesh` command with default
settings, then solved by `solve` with the configuration the guide's steps describe. Each checks the answer
the guide tells the user to expect, and prints its error, so the guide cannot promise a number the product
does not give."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[3] / "web" / "public" / "examples"
EPS0 = 8.8541878128e-12
# The library materials the guide picks, as the server hands them to the engine (it expands a `material`
# name into the properties of contracts/src/materials/library.ts; server/src/materials/material-library.ts).
LIBRARY = {
    "fr4": {"material": "fr4", "relativePermittivity": 4.4, "relativePermeability": 1, "conductivity": 0},
    "aluminium": {"material": "aluminium", "thermalConductivity": 167, "density": 2700, "heatCapacity": 896},
    "steel": {"material": "steel", "youngsModulus": 200e9, "poissonRatio": 0.3, "density": 7850},
}


def _job(dir: Path, payload: dict) -> Path:
    dir.mkdir()
    (dir / "job.json").write_text(json.dumps(payload))
    return dir


def mesh_example(engine, tmp_path: Path, name: str) -> dict:
    """The volume mesh of an example model, meshed from its STEP upload with the default settings."""
    job = _job(
        tmp_path / "mesh",
        {
            "mesh_data": {},
            "config": {"analysisType": "tetra-only", "meshingOnly": True},
            "source": {"inputs": [{"file": "source.step", "format": "step", "name": name}]},
        },
    )
    (job / "source.step").write_bytes((EXAMPLES / name).read_bytes())
    final = engine("mesh", job)[-1]
    assert final["event"] == "done", final
    return json.loads((job / "results.json").read_text())


def faces_where(mesh: dict, test) -> list[int]:
    """1-based ids of the surface triangles whose every vertex passes `test` (model units): what one click on
    a CAD face picks in the viewer."""
    v = np.asarray(mesh["vertices"])
    return [i + 1 for i, f in enumerate(mesh["faces"]) if all(test(v[k]) for k in f)]


def solve(engine, tmp_path: Path, mesh: dict, config: dict) -> dict:
    job = _job(tmp_path / "solve", {"mesh_data": mesh, "config": config})
    final = engine("solve", job)[-1]
    assert final["event"] == "done", final
    return json.loads((job / "results.json").read_text())


def report(case: str, value: float, expected: float, tolerance: float) -> None:
    error = abs(value - expected) / abs(expected)
    print(f"guide {case}: {value:.6g} against {expected:.6g}, error {error:.2e} (tolerance {tolerance:g})")
    assert error < tolerance


def test_capacitor_slab_gives_the_parallel_plate_capacitance(engine, tmp_path):
    mesh = mesh_example(engine, tmp_path, "capacitor-slab.step")
    assert mesh["units"] == "mm"
    top = faces_where(mesh, lambda p: abs(p[2] - 1) < 1e-6)
    bottom = faces_where(mesh, lambda p: abs(p[2]) < 1e-6)
    results = solve(
        engine,
        tmp_path,
        mesh,
        {
            "analysisType": "em",
            "frequency": 0,
            "bodyMaterials": [{"region": 0, **LIBRARY["fr4"]}],
            "dirichletFaceConditions": [
                {"faces": top, "voltage": 1.0, "name": "top"},
                {"faces": bottom, "voltage": 0.0, "name": "bottom"},
            ],
        },
    )
    expected = EPS0 * 4.4 * (0.02 * 0.02) / 0.001  # 15.58 pF, as the guide says
    assert f"{expected * 1e12:.2f}" == "15.58"
    report("capacitor capacitance (F)", results["quantities"]["capacitance_F"], expected, 1e-3)


def test_pin_fin_tip_temperature_is_the_fin_equations(engine, tmp_path):
    mesh = mesh_example(engine, tmp_path, "pin-fin.step")
    base = faces_where(mesh, lambda p: abs(p[2]) < 1e-6)
    rest = sorted(set(range(1, len(mesh["faces"]) + 1)) - set(base))
    results = solve(
        engine,
        tmp_path,
        mesh,
        {
            "analysisType": "thermal",
            "bodyMaterials": [{"region": 0, **LIBRARY["aluminium"]}],
            "temperatureConditions": [{"faces": base, "temperature": 373.15}],
            "convectionConditions": [{"faces": rest, "coefficient": 25, "ambientTemperature": 293.15}],
        },
    )
    h, k, d, L = 25.0, 167.0, 0.005, 0.05
    m = math.sqrt(4 * h / (k * d))
    insulated_tip = 293.15 + 80 / math.cosh(m * L)
    assert round(insulated_tip, 1) == 362.5  # the guide's figure
    # The tip convects too (the guide: "lowers it by a few tenths of a kelvin"): with the corrected length
    # L + d/4 the fin equation gives the convecting tip's temperature.
    Lc = L + d / 4
    convecting_tip = 293.15 + 80 * math.cosh(m * (Lc - L)) / math.cosh(m * Lc)
    v = np.asarray(mesh["vertices"])
    temperature = np.asarray(results["fields"]["temperature"]["data"])
    tip = temperature[np.isclose(v[:, 2], 50)].mean()
    report("pin fin tip temperature (K)", tip, convecting_tip, 2e-3)
    assert 0 < insulated_tip - tip < 1.0


def cantilever(engine, tmp_path):
    mesh = mesh_example(engine, tmp_path, "cantilever.step")
    root = faces_where(mesh, lambda p: abs(p[0]) < 1e-6)
    tip = faces_where(mesh, lambda p: abs(p[0] - 100) < 1e-6)
    return mesh, root, tip


E, I, L, RHO, A = 200e9, 0.01**4 / 12, 0.1, 7850.0, 1e-4


def test_cantilever_tip_deflection_and_reaction(engine, tmp_path):
    mesh, root, tip = cantilever(engine, tmp_path)
    results = solve(
        engine,
        tmp_path,
        mesh,
        {
            "analysisType": "structural",
            "bodyMaterials": [{"region": 0, **LIBRARY["steel"]}],
            "fixedSupports": [{"faces": root, "name": "root"}],
            "forceLoads": [{"faces": tip, "force": [0, 0, -100], "name": "tip load"}],
        },
    )
    beam = 100 * L**3 / (3 * E * I)
    assert f"{beam * 1e3:.2f}" == "0.20"
    v = np.asarray(mesh["vertices"])
    u = np.asarray(results["fields"]["displacement"]["data"])
    tip_uz = -u[np.isclose(v[:, 0], 100), 2].mean()
    # Timoshenko's shear term FL/(κGA) adds 0.3 % to the beam's bending deflection; the guide says "within
    # about 1 %" of FL³/3EI.
    report("cantilever tip deflection (m)", tip_uz, beam, 0.012)
    reaction = results["quantities"]["reactions"][0]["reaction_N"]
    report("cantilever support reaction Fz (N)", reaction[2], 100.0, 1e-6)


def test_cantilever_first_modes_are_the_beams(engine, tmp_path):
    mesh, root, _ = cantilever(engine, tmp_path)
    results = solve(
        engine,
        tmp_path,
        mesh,
        {
            "analysisType": "modal",
            "bodyMaterials": [{"region": 0, **LIBRARY["steel"]}],
            "fixedSupports": [{"faces": root, "name": "root"}],
            "modalNumModes": 6,
        },
    )
    f1 = 1.8751040687**2 / (2 * math.pi) * math.sqrt(E * I / (RHO * A * L**4))
    assert abs(f1 - 815) < 1  # "≈ 815 Hz" in the guide
    frequencies = [m["frequency"] for m in results["modes"]]
    for n in (0, 1):
        report(f"cantilever mode {n + 1} (Hz)", frequencies[n], f1, 0.02)


@pytest.mark.parametrize(
    "name", ["capacitor-slab.step", "wr90-section.step", "pin-fin.step", "cantilever.step"]
)
def test_every_example_the_guide_links_exists(name):
    assert (EXAMPLES / name).read_bytes().startswith(b"ISO-10303-21;")
