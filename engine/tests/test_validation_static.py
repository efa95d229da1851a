"""Validation of the static and quasi-static EM solvers against closed-form answers.

Cases meshed with netgen.occ keep their CAD geometry, are curved to the element order and go to the
physics functions directly; each test prints its error. Order 2 on curved meshes unless stated.
"""

import math

import netgen.occ as occ
import ngsolve as ng
import numpy as np
import pytest
from validation.recorder import RECORDER

from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.em.constants import EPS0
from fieldline_engine.em.em_static_job import solve_fields
from fieldline_engine.testing.occ_models import curved_mesh, dirichlet, field_at, material

DIRECT = SolverOptions(choice="direct")


def record(case_id: str, **measured) -> float:
    """Records a validation row (validation/cases.toml); order 2 unless the case says otherwise."""
    return RECORDER.record(case_id, **{"order": 2, **measured})


def test_concentric_spheres_capacitance():
    a, b = 0.01, 0.02
    inner = occ.Sphere(occ.Pnt(0, 0, 0), a)
    inner.faces.name = "dirichlet_0"
    outer = occ.Sphere(occ.Pnt(0, 0, 0), b)
    outer.faces.name = "dirichlet_1"
    shell = outer - inner
    shell.mat("body0")
    mesh = curved_mesh(shell, maxh=0.006, order=2)
    sol = solve_fields(mesh, [material()], dirichlet((1.0, "inner"), (0.0, "outer")), 2, 0.0, DIRECT)
    exact = 4 * math.pi * EPS0 * a * b / (b - a)
    assert abs(exact - 2.2253e-12) < 1e-16
    c = sol.quantities["capacitance_F"]
    q = sol.quantities["terminal_charges_C"]["inner"]
    record("em-spheres-capacitance", value=c, reference=exact, error=(c - exact) / exact, unknowns=sol.ndof)
    record("em-spheres-charge", value=q, reference=exact, error=(q - exact) / exact, unknowns=sol.ndof)
    assert sol.quantities["terminal_charges_C"]["outer"] == pytest.approx(-q, rel=1e-9)


def test_coaxial_line_capacitance_per_length():
    a, b, length = 1e-3, 2.302304e-3, 2e-3
    outer = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, r=b, h=length)
    outer.faces.name = "dirichlet_1"
    outer.faces.Max(occ.Z).name = "end"  # Neumann (zero flux) ends: no fringing
    outer.faces.Min(occ.Z).name = "end"
    inner = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, r=a, h=length)
    inner.faces.name = "dirichlet_0"
    section = outer - inner
    section.mat("body0")
    mesh = curved_mesh(section, maxh=0.8e-3, order=2)
    sol = solve_fields(mesh, [material()], dirichlet((1.0, "inner"), (0.0, "outer")), 2, 0.0, DIRECT)
    per_length = sol.quantities["capacitance_F"] / length
    exact = 2 * math.pi * EPS0 / math.log(b / a)
    assert abs(exact - 66.71e-12) < 0.01e-12
    record(
        "em-coax-capacitance",
        value=per_length,
        reference=exact,
        error=(per_length - exact) / exact,
        unknowns=sol.ndof,
    )


def test_dielectric_sphere_in_uniform_field():
    a, radius, e0, eps_r = 0.01, 0.03, 1000.0, 4.0
    sphere = occ.Sphere(occ.Pnt(0, 0, 0), a)
    sphere.mat("body1")
    sphere.maxh = 0.0025  # pointwise E is the gradient of a quadratic: resolve the sphere finely
    box = occ.Sphere(occ.Pnt(0, 0, 0), radius)
    box.faces.name = "dirichlet_0"
    air = box - sphere
    air.mat("body0")
    mesh = curved_mesh(occ.Glue([air, sphere]), maxh=0.008, order=2)
    # Exact exterior potential on the outer boundary: applied field plus the sphere's dipole.
    r3 = ng.sqrt(ng.x**2 + ng.y**2 + ng.z**2) ** 3
    profile = -e0 * ng.z + e0 * a**3 * (eps_r - 1) / (eps_r + 2) * ng.z / r3
    bnd = dirichlet((0.0, "far field", profile))
    sol = solve_fields(mesh, [material(), material(eps_r)], bnd, 2, 0.0, DIRECT)
    rng = np.random.default_rng(1)
    pts = rng.uniform(-0.7 * a, 0.7 * a, size=(60, 3))
    pts = pts[np.linalg.norm(pts, axis=1) < 0.8 * a]
    e = field_at(mesh, sol.e_field, pts)
    exact = np.array([0.0, 0.0, 3 / (eps_r + 2) * e0])
    worst = int(np.argmax(np.linalg.norm(e - exact, axis=1)))
    err = np.linalg.norm(e[worst] - exact) / np.linalg.norm(exact)
    record(
        "em-dielectric-sphere",
        value=float(np.linalg.norm(e[worst])),
        reference=float(np.linalg.norm(exact)),
        error=err,
        unknowns=sol.ndof,
    )
    spread = np.max(np.linalg.norm(e - e.mean(axis=0), axis=1)) / np.linalg.norm(exact)
    print(f"[validation] dielectric sphere: interior field spread {spread:.2e} (uniform)")
    assert spread < 0.01


def test_round_wire_field_and_resistance():
    """Steady conduction in a copper wire inside an air annulus, then H of the current: the outer
    cylinder is B·n = 0, so H is exactly I/(2πr) outside and Ir/(2πa²) inside."""
    a, outer_r, length, sigma, volts = 1e-3, 3e-3, 4e-3, 5.8e7, 1e-3
    wire = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, r=a, h=length)
    wire.faces.name = "insulated"
    wire.faces.Min(occ.Z).name = "dirichlet_0"
    wire.faces.Max(occ.Z).name = "dirichlet_1"
    wire.mat("body1")
    shell = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, r=outer_r, h=length)
    shell.faces.name = "outer"
    air = shell - wire
    air.mat("body0")
    mesh = curved_mesh(occ.Glue([air, wire]), maxh=0.7e-3, order=2)
    bnd = dirichlet((0.0, "ground"), (volts, "drive"))
    sol = solve_fields(mesh, [material(), material(sigma=sigma)], bnd, 2, 0.0, DIRECT)
    r_exact = length / (sigma * math.pi * a**2)
    r = sol.quantities["resistance_ohm"]
    record("em-wire-resistance", value=r, reference=r_exact, error=(r - r_exact) / r_exact, unknowns=sol.ndof)
    current = sol.quantities["terminal_currents_A"]["drive"]
    assert current == pytest.approx(volts / r_exact, rel=0.005)
    assert sol.h_field is not None
    # Ampère: the circulation of H on circles around the axis is the enclosed current.
    angles = np.linspace(0, 2 * math.pi, 48, endpoint=False)
    worst_circulation, worst_point = (0.0, 0.0, 1.0), (0.0, 0.0, 1.0)  # (error, value, exact)
    for radius in (0.5e-3, 0.8e-3, 1.5e-3, 2.2e-3, 2.7e-3):
        pts = np.stack(
            [radius * np.cos(angles), radius * np.sin(angles), np.full_like(angles, length / 2)], axis=1
        )
        h = field_at(mesh, sol.h_field, pts)
        tangent = np.stack([-np.sin(angles), np.cos(angles), np.zeros_like(angles)], axis=1)
        h_phi = np.einsum("ij,ij->i", h, tangent)
        enclosed = current * min(radius / a, 1.0) ** 2
        exact = enclosed / (2 * math.pi * radius)
        circulation = abs(h_phi.mean())
        worst_circulation = max(worst_circulation, (abs(circulation - exact) / exact, circulation, exact))
        magnitudes = np.linalg.norm(h, axis=1)
        k = int(np.argmax(np.abs(magnitudes - exact)))
        worst_point = max(worst_point, (abs(magnitudes[k] - exact) / exact, magnitudes[k], exact))
    unknowns = sol.ndof + sol.magnetic_ndof
    # 0.4 % circulation error at maxh 0.45 mm: it converges
    for case, (err, value, exact) in (
        ("em-wire-ampere", worst_circulation),
        ("em-wire-h-pointwise", worst_point),
    ):
        record(case, value=value, reference=exact, error=err, unknowns=unknowns)


def two_conductor_box():
    box = occ.Box(occ.Pnt(-3, -2, -2), occ.Pnt(3, 2, 2))
    box.faces.name = "dirichlet_0"
    left = occ.Box(occ.Pnt(-2, -0.5, -0.5), occ.Pnt(-1, 0.5, 0.5))
    left.faces.name = "dirichlet_1"
    right = occ.Cylinder(occ.Pnt(1.5, 0, -0.6), occ.Z, r=0.5, h=1.2)
    right.faces.name = "dirichlet_2"
    air = box - left - right
    air.mat("body0")
    return curved_mesh(air, maxh=0.9, order=2)


def test_capacitance_matrix_is_symmetric():
    mesh = two_conductor_box()
    bnd = dirichlet((0.0, "ground"), (1.0, "left"), (0.0, "right"))
    sol = solve_fields(mesh, [material()], bnd, 2, 0.0, DIRECT)
    entry = sol.quantities["capacitance_matrix_F"]
    c = np.array(entry["matrix"])
    assert entry["terminals"] == ["ground", "left", "right"]
    sym = np.max(np.abs(c - c.T)) / np.max(np.abs(c))
    record("em-capacitance-symmetry", value=sym, reference=0.0, error=sym, unknowns=sol.ndof)
    assert np.all(np.diag(c) > 0) and np.all(c[~np.eye(3, dtype=bool)] < 0)
    # Zero-flux nowhere here: every field line ends on a conductor, so each column sums to zero.
    assert np.max(np.abs(c.sum(axis=0))) < 1e-9 * np.max(c)
    # The driven solve's residual charges equal column 1 of the matrix.
    q = sol.quantities["terminal_charges_C"]
    assert q["left"] == pytest.approx(c[1, 1], rel=1e-9)
    assert q["right"] == pytest.approx(c[2, 1], rel=1e-9)

    iterative = solve_fields(mesh, [material()], bnd, 2, 0.0, SolverOptions("cg-bddc", 1e-10, 500))
    ci = np.array(iterative.quantities["capacitance_matrix_F"]["matrix"])
    assert np.max(np.abs(ci - c)) / np.max(c) < 1e-6
    assert iterative.reports[0][1].method.startswith("preconditioned CG")


def test_solver_choices_agree_and_are_reported():
    mesh = two_conductor_box()
    bnd = dirichlet((0.0, "ground"), (1.0, "left"), (0.5, "right"))
    energies = {}
    for choice in ("direct", "cg-bddc", "cg-amg"):
        sol = solve_fields(
            mesh, [material()], bnd, 2, 0.0, SolverOptions(choice, 1e-10, 500), terminal_matrix=False
        )
        info = sol.reports[0][1].as_info()
        energies[choice] = sol.quantities["stored_energy_J"]
        if choice == "direct":
            assert info["linear_solver"] == "direct (sparse Cholesky)"
        else:
            assert info["linear_solver"] == "preconditioned CG" and info["iterations"] > 0
            # cg-amg at order 2: Gauss–Seidel around AMG on the vertex DOFs (core/h1_two_level.py), not BDDC
            assert ("vertex AMG" if choice == "cg-amg" else "bddc") in info["preconditioner"]
    ref = energies["direct"]
    assert all(abs(w - ref) / ref < 1e-8 for w in energies.values()), energies


def test_quasistatic_lossy_sphere_capacitor():
    """Concentric spheres filled with a lossy dielectric: Y = G + jωC with G/C = σ/ε."""
    a, b, eps_r, sigma, freq = 0.01, 0.02, 4.0, 1e-3, 1e6
    inner = occ.Sphere(occ.Pnt(0, 0, 0), a)
    inner.faces.name = "dirichlet_0"
    outer = occ.Sphere(occ.Pnt(0, 0, 0), b)
    outer.faces.name = "dirichlet_1"
    shell = outer - inner
    shell.mat("body0")
    mesh = curved_mesh(shell, maxh=0.006, order=2)
    bnd = dirichlet((1.0, "inner"), (0.0, "outer"))
    sol = solve_fields(mesh, [material(eps_r, sigma)], bnd, 2, freq, DIRECT)
    geometric = 4 * math.pi * a * b / (b - a)
    y_exact = sigma * geometric + 2j * math.pi * freq * eps_r * EPS0 * geometric
    z = sol.quantities["impedance_ohm"]
    z_num = complex(z["real"], z["imag"])
    err = abs(z_num - 1 / y_exact) * abs(y_exact)
    record("em-lossy-capacitor", value=abs(z_num), reference=abs(1 / y_exact), error=err, unknowns=sol.ndof)
    assert z["phase_deg"] == pytest.approx(math.degrees(-math.atan2(y_exact.imag, y_exact.real)), abs=0.3)
    assert sol.quantities["capacitance_F"] == pytest.approx(eps_r * EPS0 * geometric, rel=0.01)
    assert sol.complex_valued and sol.h_field is not None


def harmonic_box_error(order: int, cells: int) -> tuple[float, float, int]:
    """L2 and energy errors for φ = e^{πx}cos(πy) (harmonic) on the unit cube, exact Dirichlet data."""
    from fieldline_engine.em.electrostatics import solve_electrostatics
    from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
    from fieldline_engine.mesh.tet_model import model_from_mesh_data
    from fieldline_engine.testing.meshes import box_mesh

    model = model_from_mesh_data(box_mesh((1, 1, 1), (cells, cells, cells)))
    labels = np.full(len(model.faces), "dirichlet_0", dtype=object)
    mesh = build_ngsolve_mesh(model, labels)
    exact = ng.exp(math.pi * ng.x) * ng.cos(math.pi * ng.y)
    grad_exact = ng.CF((math.pi * exact, -math.pi * ng.exp(math.pi * ng.x) * ng.sin(math.pi * ng.y), 0))
    bnd = dirichlet((0.0, "boundary", exact))
    bnd.face_labels = labels
    sol = solve_electrostatics(mesh, [material()], bnd, order, DIRECT, terminal_matrix=False)
    l2 = math.sqrt(ng.Integrate((sol.potential - exact) ** 2, mesh, order=2 * order + 4))
    h1 = math.sqrt(
        ng.Integrate(
            ng.InnerProduct(ng.grad(sol.potential) - grad_exact, ng.grad(sol.potential) - grad_exact),
            mesh,
            order=2 * order + 4,
        )
    )
    return l2, h1, sol.ndof


@pytest.mark.parametrize("order", [1, 2, 3])
def test_h_refinement_convergence_order(order):
    cells = (2, 4, 8) if order < 3 else (1, 2, 4)
    errors = [harmonic_box_error(order, n) for n in cells]
    (l2_c, h1_c, _), (l2_f, h1_f, ndof) = errors[-2], errors[-1]
    rate_l2 = math.log2(l2_c / l2_f)
    rate_h1 = math.log2(h1_c / h1_f)
    print(f"[validation] h-refinement order {order}: energy rate {rate_h1:.2f} (expect {order})")
    record(
        f"em-h-convergence-order-{order}",
        value=rate_l2,
        reference=order + 1,
        error=max(0.0, order + 1 - rate_l2),  # faster than the estimate is not an error
        unknowns=ndof,
        order=order,
        convergence=[(n, l2) for l2, _, n in errors],
    )
    assert rate_h1 > order - 0.25


def test_p_refinement_convergence():
    errors = [harmonic_box_error(p, 3)[0] for p in (1, 2, 3)]
    ratios = [errors[i] / errors[i + 1] for i in range(2)]
    print(
        f"[validation] p-refinement on a 3³ box mesh: L2 errors {[f'{e:.2e}' for e in errors]}, ratios {ratios}"
    )
    # Spectral behaviour: each order gains at least a factor 5 on this smooth solution.
    assert all(r > 5 for r in ratios)


def test_curved_geometry_for_an_uploaded_mesh():
    """Concentric spheres uploaded as bare tetrahedra (no CAD left): the reconstructed quadratic
    geometry brings C within 1 % where the straight-sided mesh is off by ~3 %."""
    from fieldline_engine.em.em_static_job import solve_em_static
    from fieldline_engine.mesh.tet_model import model_from_mesh_data

    a, b = 0.01, 0.02
    ngmesh = occ.OCCGeometry(occ.Sphere(occ.Pnt(0, 0, 0), b) - occ.Sphere(occ.Pnt(0, 0, 0), a)).GenerateMesh(
        maxh=0.006
    )
    vertices = np.array([p.p for p in ngmesh.Points()])
    faces = np.array([[v.nr - 1 for v in el.vertices] for el in ngmesh.Elements2D()])
    tets = np.array([[v.nr - 1 for v in el.vertices] for el in ngmesh.Elements3D()])
    mesh_data = {"vertices": vertices.tolist(), "faces": faces.tolist(), "tetrahedra": tets.tolist()}
    radius = np.linalg.norm(vertices[faces].mean(axis=1), axis=1)
    ids = np.arange(1, len(faces) + 1)
    config = {
        "meshOrder": 2,
        "dirichletFaceConditions": [
            {"faces": ids[radius < 0.015].tolist(), "voltage": 1.0},
            {"faces": ids[radius > 0.015].tolist(), "voltage": 0.0},
        ],
    }
    exact = 4 * math.pi * EPS0 * a * b / (b - a)
    errors, values = {}, {}
    for curved in (False, True):
        results = solve_em_static(model_from_mesh_data(mesh_data), {**config, "useCurvedGeometry": curved})
        values[curved] = results.quantities["capacitance_F"]
        errors[curved] = abs(values[curved] - exact) / exact
        assert results.solver_info["curved_geometry"]["curved"] is curved
    print(f"[validation] uploaded spheres C, straight-sided: relative error {errors[False]:.3e}")
    record(
        "em-uploaded-curved-spheres",
        value=values[True],
        reference=exact,
        error=errors[True],
        unknowns=results.solver_info["matrix_size"],
        order=2,
    )
    assert errors[False] > 0.02
