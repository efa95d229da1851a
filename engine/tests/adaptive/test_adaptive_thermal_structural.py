"""Adaptive refinement of a thermal-structural run: both steps' flux recoveries (∇T by k, the strain by E)
drive one mesh. A thick tube with its bore hotter than its outside (Timoshenko & Goodier §151, plane strain):
the estimated error falls pass by pass and the bore's hoop stress stays at the closed form."""

import math

import ngsolve as ng
import numpy as np
from netgen import occ

from fieldline_engine import analyses  # noqa: F401 — registers the families (the thermal step)
from fieldline_engine.core.adaptive.loop import run_adaptive
from fieldline_engine.core.adaptive.surface import ReconstructedSurface
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.structural.thermal_stress import ThermalStructuralAnalysis
from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve

E, NU, ALPHA = 200e9, 0.3, 12e-6
A, B, T = 0.1, 0.2, 0.02
T_A, T_B = 393.15, 293.15


def test_thick_tube_passes_lower_the_joint_estimate_and_keep_the_bore_hoop_stress():
    tube = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, B, T) - occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, A, T)
    quarter = tube * occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(B, B, T))
    quarter.faces.Min(occ.X).name = "sym_x"
    quarter.faces.Min(occ.Y).name = "sym_y"
    quarter.faces.Min(occ.Z).name = "bottom"
    quarter.faces.Max(occ.Z).name = "top"
    for face in quarter.faces:
        if face.name is None or face.name == "":
            face.name = "bore" if math.hypot(face.center.x, face.center.y) < 0.15 else "outer"
    data, groups = mesh_data_from_ngsolve(ng.Mesh(occ.OCCGeometry(quarter).GenerateMesh(maxh=0.04)), "m")
    model = model_from_mesh_data(data)
    config = {
        "analysisType": "thermal-structural",
        "youngsModulus": E,
        "poissonRatio": NU,
        "thermalExpansion": ALPHA,
        "meshOrder": 2,
        "useCurvedGeometry": True,
        "thermalConductivity": 50.0,
        "referenceTemperature": T_B,
        "temperatureConditions": [
            {"faces": groups["bore"], "temperature": T_A},
            {"faces": groups["outer"], "temperature": T_B},
        ],
        "displacementConditions": [
            {"faces": groups["sym_x"], "displacement": [0, None, None]},
            {"faces": groups["sym_y"], "displacement": [None, 0, None]},
            {"faces": groups["bottom"] + groups["top"], "displacement": [None, None, 0]},
        ],
        "adaptiveRefinement": {"tolerance": 0.001, "maxPasses": 3, "maxUnknowns": 100000},
    }
    outcome = run_adaptive(ThermalStructuralAnalysis(), model, config, SILENT, ReconstructedSurface())
    sol = outcome.solution
    passes = sol.solver_info["adaptive_passes"]
    log = math.log(B / A)
    exact = ALPHA * E * (T_A - T_B) / (2 * (1 - NU) * log) * (1 - 2 * B**2 / (B**2 - A**2) * log)
    xyz = outcome.model.vertices
    r = np.hypot(xyz[:, 0], xyz[:, 1])
    s = sol.field("stress").values
    c, sn = xyz[:, 0] / r, xyz[:, 1] / r
    hoop = s[:, 0] * sn**2 + s[:, 1] * c**2 - 2 * s[:, 3] * sn * c
    bore = float(np.median(hoop[np.isclose(r, A, rtol=1e-3)]))
    for p in passes:
        print(
            f"pass {p['pass']}: {p['elements']} tets, {p['unknowns']} unknowns, estimated error "
            f"{p['estimated_error']:.4f}, max von Mises {p['quantity']:.4g} Pa"
        )
    print(
        f"[coupled] adaptive tube: bore hoop stress {bore:.5g} Pa vs {exact:.5g} Pa ({bore / exact - 1:+.2%})"
    )
    assert len(passes) == 3 and sol.solver_info["adaptive_refinement"]["quantity"] == "max_von_mises_Pa"
    assert passes[-1]["estimated_error"] < 0.7 * passes[0]["estimated_error"]
    assert abs(bore / exact - 1) < 0.02
    # both steps' fields on the final mesh, the fixed temperatures on every refined bore face
    temperature = sol.field("temperature").values
    assert np.allclose(temperature[np.isclose(r, A, rtol=1e-9)], T_A)
    assert len(sol.field("error_indicator").values) == outcome.model.nt
