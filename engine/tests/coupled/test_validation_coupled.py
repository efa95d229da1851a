"""Coupled physics against closed forms (docs/multiphysics.md §7): thermal stress (a uniform ΔT, a bimetal,
a thick cylinder with its own thermal solve) and prestressed modes. Each case prints its error."""

import math
import time

import ngsolve as ng
import numpy as np
from netgen import occ
from validation.recorder import RECORDER

import fieldline_engine.analyses  # noqa: F401 — registers the families the coupled steps ask for
from fieldline_engine.core.registry import analysis_for
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane
from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve

E, NU, ALPHA = 200e9, 0.3, 12e-6
T_REF = 293.15
report = RECORDER.record_solution


def solve(mesh, config):
    model = model_from_mesh_data(mesh)
    config = {"youngsModulus": E, "poissonRatio": NU, "thermalExpansion": ALPHA, "meshOrder": 2, **config}
    started = time.perf_counter()
    solution = analysis_for(config).solve(model, config, SILENT)
    return model, solution, time.perf_counter() - started


def symmetry_planes(mesh, axes=(0, 1, 2)):
    """u·n = 0 on the coordinate planes through the origin: the box may expand freely away from them."""
    out = []
    for axis in axes:
        displacement = [None, None, None]
        displacement[axis] = 0
        out.append({"faces": faces_on_plane(mesh, axis, 0.0), "displacement": displacement})
    return out


BAR = (0.2, 0.02, 0.02)
DT = 100.0


def test_free_bar_under_a_uniform_temperature_rise():
    mesh = box_mesh(BAR, (10, 2, 2))
    model, sol, seconds = solve(
        mesh,
        {
            "analysisType": "structural",
            "temperatureLoad": {"uniform": T_REF + DT},
            "displacementConditions": symmetry_planes(mesh),
        },
    )
    u = sol.field("displacement").values
    strain = float(np.max(u[:, 0]) / BAR[0])
    report("coupled-free-bar-strain", strain, ALPHA * DT, sol, seconds)
    # Free expansion is stress-free: every component below 1e-6 of the held stress E α ΔT.
    peak = float(np.max(np.abs(sol.field("stress").values)))
    RECORDER.record(
        "coupled-free-bar-stress",
        value=peak,
        reference=0.0,
        error=peak / (E * ALPHA * DT),
        unknowns=sol.solver_info["matrix_size"],
        order=2,
        seconds=seconds,
    )
    assert sol.quantities["thermal_load_max_temperature_K"] == T_REF + DT


def test_bar_held_at_both_ends():
    mesh = box_mesh(BAR, (10, 2, 2))
    ends = [{"faces": faces_on_plane(mesh, 0, BAR[0]), "displacement": [0, None, None]}]
    model, sol, seconds = solve(
        mesh,
        {
            "analysisType": "structural",
            "temperatureLoad": {"uniform": T_REF + DT},
            "displacementConditions": symmetry_planes(mesh) + ends,
        },
    )
    sigma = float(np.mean(sol.field("stress").values[:, 0]))
    report("coupled-held-bar-stress", sigma, -E * ALPHA * DT, sol, seconds)
    # The ends push with σA each way; the reactions balance.
    reactions = [r["reaction_N"][0] for r in sol.quantities["reactions"]]
    assert math.isclose(max(reactions), E * ALPHA * DT * BAR[1] * BAR[2], rel_tol=1e-6)
    assert sol.quantities["reaction_balance_error"] < 1e-6
    # Stored energy ½∫σ:(ε − ε_th) = σ²V/(2E) in uniaxial stress (not ½uᵀKu, which is 0 here: u = 0).
    energy = sol.quantities["strain_energy_J"]
    expected = (E * ALPHA * DT) ** 2 * BAR[0] * BAR[1] * BAR[2] / (2 * E)
    print(
        f"[energy] held bar: {energy:.6g} J vs σ²V/(2E) = {expected:.6g} J, error {energy / expected - 1:.1e}"
    )
    assert math.isclose(energy, expected, rel_tol=1e-9)


def two_layer_strip(length, width, t1, t2, cells):
    """A box of two bonded layers (body 0 below z = t1, body 1 above), one conforming mesh."""
    nx, ny, nz = cells
    mesh = box_mesh((length, width, t1 + t2), (nx, ny, nz))
    v = np.asarray(mesh["vertices"])
    tets = np.asarray(mesh["tetrahedra"])
    centroid_z = v[tets][:, :, 2].mean(axis=1)
    mesh["tetrahedron_regions"] = (centroid_z > t1).astype(int).tolist()
    mesh["region_names"] = ["steel", "brass"]
    return mesh


def test_bimetallic_strip_curvature_timoshenko():
    """Timoshenko (1925): a bonded strip of two metals heated by ΔT bends with curvature
    κ = 6 (α₂ − α₁) ΔT (1 + m)² / (h [3 (1 + m)² + (1 + m n)(m² + 1/(m n))]), m = t₁/t₂, n = E₁/E₂, h = t₁ + t₂.
    Half the strip by symmetry (x = 0 stays plane in pure bending), ν = 0 (beam theory's assumption, no
    anticlastic bending); the free end rises κ L²/2 above the mid-plane section."""
    length, width, t1, t2 = 0.1, 0.004, 0.001, 0.001
    e1, e2, a1, a2 = 200e9, 100e9, 12e-6, 19e-6
    mesh = two_layer_strip(length, width, t1, t2, (50, 2, 4))
    v = np.asarray(mesh["vertices"])
    origin = int(np.argmin(np.linalg.norm(v, axis=1)))  # (0, 0, 0)
    corner = int(np.argmin(np.linalg.norm(v - [0, width, 0], axis=1)))
    model, sol, seconds = solve(
        mesh,
        {
            "analysisType": "structural",
            "poissonRatio": 0.0,
            "temperatureLoad": {"uniform": T_REF + DT},
            "bodyMaterials": [
                {"region": 0, "youngsModulus": e1, "thermalExpansion": a1},
                {"region": 1, "youngsModulus": e2, "thermalExpansion": a2},
            ],
            "displacementConditions": [
                {"faces": faces_on_plane(mesh, 0, 0.0), "displacement": [0, None, None]},
                {"points": [origin], "displacement": [None, 0, 0]},
                {"points": [corner], "displacement": [None, None, 0]},
            ],
        },
    )
    m, n, h = t1 / t2, e1 / e2, t1 + t2
    kappa = 6 * (a2 - a1) * DT * (1 + m) ** 2 / (h * (3 * (1 + m) ** 2 + (1 + m * n) * (m**2 + 1 / (m * n))))
    exact = kappa * length**2 / 2
    u = sol.field("displacement").values
    x = model.vertices[:, 0]
    # The brass (larger α) is on top: the strip bends down at its end, relative to the symmetry section.
    rise = float(u[np.isclose(x, 0.0), 2].mean() - u[np.isclose(x, length), 2].mean())
    report("coupled-bimetal-tip", rise, exact, sol, seconds)


def test_thick_cylinder_with_a_radial_temperature_difference():
    """Timoshenko & Goodier §151: a long tube a < r < b with the bore at T_a and the outside at T_b, steady
    conduction T = T_b + ΔT ln(b/r)/ln(b/a), ΔT = T_a − T_b; plane strain hoop stress
    σθ = αEΔT / (2(1−ν) ln(b/a)) · [1 − ln(b/r) − a²/(b²−a²) (1 + b²/r²) ln(b/a)].
    One thermal-structural job: the thermal step solves the temperature the elasticity is loaded by.
    A quarter by symmetry, u_z = 0 on both ends (plane strain), curved order-2 mesh."""
    a, b, t = 0.1, 0.2, 0.02
    t_a, t_b = 393.15, 293.15
    tube = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, b, t) - occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, a, t)
    quarter = tube * occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(b, b, t))
    quarter.faces.Min(occ.X).name = "sym_x"
    quarter.faces.Min(occ.Y).name = "sym_y"
    quarter.faces.Min(occ.Z).name = "bottom"
    quarter.faces.Max(occ.Z).name = "top"
    for face in quarter.faces:
        if face.name is None or face.name == "":
            face.name = "bore" if math.hypot(face.center.x, face.center.y) < 0.15 else "outer"
    data, groups = mesh_data_from_ngsolve(ng.Mesh(occ.OCCGeometry(quarter).GenerateMesh(maxh=0.01)), "m")
    model, sol, seconds = solve(
        data,
        {
            "analysisType": "thermal-structural",
            "useCurvedGeometry": True,
            "thermalConductivity": 50.0,
            "referenceTemperature": t_b,
            "temperatureConditions": [
                {"faces": groups["bore"], "temperature": t_a, "name": "bore"},
                {"faces": groups["outer"], "temperature": t_b, "name": "outside"},
            ],
            "displacementConditions": [
                {"faces": groups["sym_x"], "displacement": [0, None, None]},
                {"faces": groups["sym_y"], "displacement": [None, 0, None]},
                {"faces": groups["bottom"] + groups["top"], "displacement": [None, None, 0]},
            ],
        },
    )
    dt = t_a - t_b
    log = math.log(b / a)

    def hoop_exact(r):
        return (
            ALPHA
            * E
            * dt
            / (2 * (1 - NU) * log)
            * (1 - math.log(b / r) - a**2 / (b**2 - a**2) * (1 + b**2 / r**2) * log)
        )

    xyz = model.vertices
    r = np.hypot(xyz[:, 0], xyz[:, 1])
    s = sol.field("stress").values
    c, sn = xyz[:, 0] / r, xyz[:, 1] / r
    hoop = s[:, 0] * sn**2 + s[:, 1] * c**2 - 2 * s[:, 3] * sn * c
    # Both families' fields and quantities in one result.
    assert {"temperature", "heat_flux", "displacement", "von_mises", "stress"} <= {f.name for f in sol.fields}
    assert math.isclose(sol.quantities["max_temperature_K"], t_a, rel_tol=1e-9)
    assert "max_von_mises_Pa" in sol.quantities and sol.solver_info["analysis"] == "thermal-structural"
    for case, radius in (("coupled-cylinder-hoop-bore", a), ("coupled-cylinder-hoop-outside", b)):
        on = np.isclose(r, radius, rtol=1e-3)
        exact = hoop_exact(radius)
        report(case, float(np.median(hoop[on])), exact, sol, seconds)


L, W, H = 1.0, 0.06, 0.02  # a steel strip pinned at both ends, bending about its weak axis (z)
RHO = 7850.0
I = W * H**3 / 12
A = W * H
P_CR = math.pi**2 * E * I / L**2  # Euler's first buckling load


def pinned_beam(mesh):
    """Pinned–pinned: u_z = 0 along the mid-height line of each end face (the section may rotate about y),
    u_y held at one point of each end line and u_x at the centre: no rigid motion, no axial restraint."""
    v = np.asarray(mesh["vertices"])

    def end_line(x):
        on = np.flatnonzero(np.isclose(v[:, 0], x) & np.isclose(v[:, 2], H / 2))
        return on[np.argsort(v[on, 1])]

    def pairs(ids):
        return [[int(p), int(q)] for p, q in zip(ids[:-1], ids[1:], strict=True)]

    centre = int(np.argmin(np.linalg.norm(v - [L / 2, W / 2, H / 2], axis=1)))
    left, right = end_line(0.0), end_line(L)
    return [
        {"edges": pairs(left), "displacement": [None, None, 0]},
        {"edges": pairs(right), "displacement": [None, None, 0]},
        {"points": [int(left[0]), int(right[0])], "displacement": [None, 0, None]},
        {"points": [centre], "displacement": [0, None, None]},
    ]


def bending_frequencies(sol, count=3):
    """The first `count` modes that bend about y (their shape mostly u_z)."""
    out = []
    for mode in sol.extras["modes"]:
        shape = np.asarray(mode["shape"])
        if not mode["rigid_body"] and np.sum(shape[:, 2] ** 2) > 0.9 * np.sum(shape**2):
            out.append(mode["frequency"])
    return out[:count]


def test_prestressed_pinned_beam_frequencies():
    """ω_n(P)² = ω_n(0)² (1 + P L²/(n² π² E I)), ω_n(0) Euler–Bernoulli's (n² π²/L²)√(EI/ρA): a tension of P_cr
    raises the n-th frequency by √(1 + 1/n²), a compression of P_cr/2 lowers it by √(1 − 1/2n²). The loads are
    equal and opposite end forces (uniform σ_xx = P/A); `prestress: true` solves them first."""
    mesh = box_mesh((L, W, H), (30, 3, 2))
    ends = (faces_on_plane(mesh, 0, 0.0), faces_on_plane(mesh, 0, L))
    base = {
        "analysisType": "modal",
        "density": RHO,
        "modalNumModes": 8,
        "displacementConditions": pinned_beam(mesh),
    }
    for case, load in (("coupled-prestress-tension", P_CR), ("coupled-prestress-compression", -0.5 * P_CR)):
        model, sol, seconds = solve(
            mesh,
            {
                **base,
                "prestress": True,
                "forceLoads": [
                    {"faces": ends[0], "force": [-load, 0, 0], "name": "left end"},
                    {"faces": ends[1], "force": [load, 0, 0], "name": "right end"},
                ],
            },
        )
        found = bending_frequencies(sol)
        errors = []
        for n, f in enumerate(found, start=1):
            f0 = n**2 * math.pi / (2 * L**2) * math.sqrt(E * I / (RHO * A))
            exact = f0 * math.sqrt(1 + load * L**2 / (n**2 * math.pi**2 * E * I))
            errors.append((abs(f - exact) / exact, f, exact))
            print(f"[prestress] P = {load:+.4g} N, mode {n}: {f:.5g} Hz vs {exact:.5g} Hz")
        worst, value, exact = max(errors)
        report(case, value, exact, sol, seconds)
        assert len(found) == 3
        # The static step's quantities sit beside the modes, and the results say which way the modes moved.
        assert sol.quantities["prestress_effect"] == ("raised" if load > 0 else "lowered")
        assert "max_von_mises_Pa" in sol.quantities
        assert math.isclose(float(np.median(sol.field("stress").values[:, 0])), load / A, rel_tol=0.01)
