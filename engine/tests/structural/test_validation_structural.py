"""Structural validation against closed forms (docs/structural.md). Each case prints its error."""

import math
import time

import ngsolve as ng
import numpy as np
from netgen import occ
from validation.recorder import RECORDER

from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.structural.analysis import StructuralAnalysis
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane
from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve

E, NU = 200e9, 0.3
G = E / (2 * (1 + NU))
KAPPA = 5 / 6  # shear correction of a rectangular section


def mesh_data(shape, maxh: float):
    """An OpenCascade part meshed by Netgen, as a user's upload (metres) with each CAD face's ids."""
    return mesh_data_from_ngsolve(ng.Mesh(occ.OCCGeometry(shape).GenerateMesh(maxh=maxh)), "m")


def solve(mesh, config):
    model = model_from_mesh_data(mesh)
    started = time.perf_counter()
    solution = StructuralAnalysis().solve(
        model, {"analysisType": "structural", "youngsModulus": E, "poissonRatio": NU, **config}, SILENT
    )
    return model, solution, time.perf_counter() - started


report = RECORDER.record_solution


L, W, H = 1.0, 0.05, 0.05  # a slender cantilever along x, clamped at x = 0
I = W * H**3 / 12
A = W * H


def test_cantilever_end_force_timoshenko():
    mesh = box_mesh((L, W, H), (40, 2, 2))
    force = 1000.0
    model, sol, seconds = solve(
        mesh,
        {
            "meshOrder": 2,
            "fixedSupports": [{"faces": faces_on_plane(mesh, 0, 0.0)}],
            "forceLoads": [{"faces": faces_on_plane(mesh, 0, L), "force": [0, 0, -force]}],
        },
    )
    tip = np.isclose(model.vertices[:, 0], L)
    deflection = -float(sol.field("displacement").values[tip, 2].mean())
    exact = force * L**3 / (3 * E * I) + force * L / (KAPPA * G * A)
    assert report("structural-cantilever-tip", deflection, exact, sol, seconds) < 0.01
    q = sol.quantities
    balance = q["reaction_balance_error"]
    RECORDER.record(
        "structural-reaction-balance",
        value=balance,
        reference=0.0,
        error=balance,
        unknowns=sol.solver_info["matrix_size"],
        order=2,
        seconds=seconds,
    )
    assert q["reactions"][0]["reaction_N"][2] == pytest_approx(force, 1e-6)
    # Root bending stress σ = M c / I = F L (H/2) / I (Saint-Venant: away from the clamp and the load).
    x = model.vertices[:, 0]
    mid = np.isclose(x, L / 2) & np.isclose(model.vertices[:, 2], H)
    sigma_xx = float(sol.field("stress").values[mid, 0].mean())
    exact_sigma = force * (L / 2) * (H / 2) / I  # hogging moment: the top fibre is in tension
    assert report("structural-cantilever-stress", sigma_xx, exact_sigma, sol, seconds) < 0.02


def pytest_approx(value: float, rel: float):
    import pytest

    return pytest.approx(value, rel=rel)


def test_cantilever_under_its_own_weight():
    mesh = box_mesh((L, W, H), (40, 2, 2))
    rho, g = 7850.0, 9.81
    model, sol, seconds = solve(
        mesh,
        {
            "meshOrder": 2,
            "density": rho,
            "gravity": [0, 0, -g],
            "fixedSupports": [{"faces": faces_on_plane(mesh, 0, 0.0)}],
        },
    )
    tip = np.isclose(model.vertices[:, 0], L)
    deflection = -float(sol.field("displacement").values[tip, 2].mean())
    q = rho * g * A  # load per length
    exact = q * L**4 / (8 * E * I) + q * L**2 / (2 * KAPPA * G * A)
    assert report("structural-self-weight", deflection, exact, sol, seconds) < 0.01
    weight = rho * A * L * g
    assert sol.quantities["applied_load_N"][2] == pytest_approx(-weight, 1e-9)
    assert sol.quantities["reaction_balance_error"] < 1e-6


def test_thick_cylinder_lame_plane_strain():
    """A quarter of a thick-walled tube (a = 0.1 m, b = 0.2 m) under internal pressure, plane strain by
    symmetry conditions: u_x = 0 on x = 0, u_y = 0 on y = 0, u_z = 0 on both ends."""
    a, b, t, p = 0.1, 0.2, 0.02, 100e6
    tube = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, b, t) - occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, a, t)
    quarter = tube * occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(b, b, t))
    quarter.faces.Min(occ.X).name = "sym_x"
    quarter.faces.Min(occ.Y).name = "sym_y"
    quarter.faces.Min(occ.Z).name = "bottom"
    quarter.faces.Max(occ.Z).name = "top"
    for face in quarter.faces:
        if face.name is None or face.name == "":
            r = math.hypot(face.center.x, face.center.y)
            face.name = "bore" if r < 0.15 else "outer"
    data, groups = mesh_data(quarter, maxh=0.01)
    model, sol, seconds = solve(
        data,
        {
            "meshOrder": 2,
            "useCurvedGeometry": True,
            "displacementConditions": [
                {"faces": groups["sym_x"], "displacement": [0, None, None]},
                {"faces": groups["sym_y"], "displacement": [None, 0, None]},
                {"faces": groups["bottom"] + groups["top"], "displacement": [None, None, 0]},
            ],
            "pressureLoads": [{"faces": groups["bore"], "pressure": p}],
        },
    )
    big_a = p * a**2 / (b**2 - a**2)
    big_b = p * a**2 * b**2 / (b**2 - a**2)
    u_exact = (1 + NU) / E * ((1 - 2 * NU) * big_a * a + big_b / a)
    hoop_exact = big_a + big_b / a**2
    xyz = model.vertices
    r = np.hypot(xyz[:, 0], xyz[:, 1])
    bore = np.isclose(r, a, rtol=1e-3)
    u = sol.field("displacement").values
    radial = (u[bore, 0] * xyz[bore, 0] + u[bore, 1] * xyz[bore, 1]) / r[bore]
    s = sol.field("stress").values[bore]
    c, sn = xyz[bore, 0] / r[bore], xyz[bore, 1] / r[bore]
    hoop = s[:, 0] * sn**2 + s[:, 1] * c**2 - 2 * s[:, 3] * sn * c
    assert report("structural-lame-displacement", float(radial.mean()), u_exact, sol, seconds) < 0.01
    assert report("structural-lame-hoop", float(np.median(hoop)), hoop_exact, sol, seconds) < 0.01


def test_plate_with_a_hole_howland():
    """A plate of width Wp with a central hole d = 0.2·Wp under tension: σ_max / σ_gross = 3.14 (Howland
    1930, as tabulated by Peterson; Heywood's fit 2 + (1 − d/W)³ on the net section gives 3.140).
    An eighth by symmetry (the mid-plane z = 0 too), thin (plane stress), 2.5 widths long."""
    width, thickness = 0.1, 0.002
    d = 0.2 * width
    length = 2.5 * width
    plate = occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(length / 2, width / 2, thickness)) - occ.Cylinder(
        occ.Pnt(0, 0, 0), occ.Z, d / 2, thickness
    )
    plate.faces.Min(occ.X).name = "sym_x"
    plate.faces.Min(occ.Y).name = "sym_y"
    plate.faces.Min(occ.Z).name = "mid_plane"
    plate.faces.Max(occ.X).name = "pulled"
    hole = [
        f
        for f in plate.faces
        if f.name in (None, "")
        and abs(f.center.z - thickness / 2) < 1e-9
        and math.hypot(f.center.x, f.center.y) < d
    ]
    for f in hole:
        f.name = "hole"
        f.maxh = d / 16
    data, groups = mesh_data(plate, maxh=width / 12)
    sigma = 10e6
    model, sol, seconds = solve(
        data,
        {
            "meshOrder": 2,
            "useCurvedGeometry": True,
            "displacementConditions": [
                {"faces": groups["sym_x"], "displacement": [0, None, None]},
                {"faces": groups["sym_y"], "displacement": [None, 0, None]},
                {"faces": groups["mid_plane"], "displacement": [None, None, 0]},
            ],
            "forceLoads": [{"faces": groups["pulled"], "force": [sigma * (width / 2) * thickness, 0, 0]}],
        },
    )
    xyz = model.vertices
    # The hole's edge at 90° to the load: x = 0, y = d/2 (through the thickness).
    edge = np.isclose(xyz[:, 0], 0, atol=1e-9) & np.isclose(xyz[:, 1], d / 2, rtol=1e-3)
    peak = float(sol.field("stress").values[edge, 0].mean())
    assert report("structural-howland", peak / sigma, 3.14, sol, seconds) < 0.03


def test_nafems_le10_thick_plate():
    """NAFEMS LE10: the elliptic thick plate under 1 MPa, held in z on the outer face's mid-line only (an
    edge condition); σ_yy at D = (2, 0, 0.3) is −5.38 MPa. A coarse mesh here; bench/structural/le10.py
    runs the finer ones against CalculiX."""
    from fieldline_engine.testing import nafems_le10 as le10

    data, groups, mid_line = le10.mesh_data(0.2)
    model, sol, seconds = solve(data, {**le10.config(groups, mid_line), "useCurvedGeometry": True})
    sigma_yy = float(sol.field("stress").values[le10.d_vertex(model.vertices), 1])
    assert report("structural-nafems-le10", sigma_yy, le10.TARGET_PA, sol, seconds) < 0.02
    assert sol.quantities["reaction_balance_error"] < 1e-6
