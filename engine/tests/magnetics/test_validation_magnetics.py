"""Magnetostatics against closed forms and reference integrals (docs/magnetics.md §6). Each case prints its
error and records a row in the validation report. Models are netgen.occ geometry, curved to the element
order, solved through em/magnetics/run.py as the job does after building its mesh."""

import math
import time

import ngsolve as ng
import numpy as np
from netgen import occ
from validation.recorder import RECORDER

from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.em.magnetics.bh_curve import BhCurve, checked_table
from fieldline_engine.em.magnetics.run import run_magnetostatic
from fieldline_engine.em.magnetics.setup import FLUX_NORMAL_LABEL, CoilSpec
from fieldline_engine.em.magnetics.solver import BodyMagnetics
from fieldline_engine.testing.magnetics_reference import (
    MU0,
    bar_force_per_length,
    coil_mutual,
    magnet_axis_field,
    solenoid_axis_field,
)
from fieldline_engine.testing.occ_models import curved_mesh

OPTIONS = SolverOptions(choice="auto")
ORDER = 2
# The M-19 DC curve (contracts/src/materials/magnetic.ts BH_CURVES["m19-steel"]).
M19 = [
    [0, 0],
    [39.78875, 0.3],
    [79.5775, 0.8],
    [159.155, 1.12],
    [318.31, 1.32],
    [795.775, 1.46],
    [1591.55, 1.54],
    [3376.667, 1.61875],
    [7957.75, 1.74],
    [15915.5, 1.87],
    [31831, 1.99],
    [55102.04, 2.045964],
    [79577.5, 2.08],
]


def record(case_id: str, value: float, reference: float, run, started: float) -> float:
    return RECORDER.record(
        case_id,
        value=value,
        reference=reference,
        error=(value - reference) / reference,
        unknowns=run.fields.ndof,
        order=ORDER,
        seconds=time.perf_counter() - started,
    )


def ring(r1: float, r2: float, z1: float, z2: float):
    outer = occ.Cylinder(occ.Pnt(0, 0, z1), occ.Z, r=r2, h=z2 - z1)
    return outer - occ.Cylinder(occ.Pnt(0, 0, z1), occ.Z, r=r1, h=z2 - z1)


def at(mesh: ng.Mesh, cf: ng.CoefficientFunction, points) -> np.ndarray:
    return np.array([cf(mesh(*p)) for p in points])


def test_toroid_on_a_wrapping_winding_linear_and_saturated():
    """A ring core wound all round (`wraps`): H = NI/2πr in the core whatever μ is."""
    a, b, h, t = 0.02, 0.03, 0.01, 0.002
    core = ring(a, b, -h / 2, h / 2)
    core.mat("body0")
    winding = ring(a - t, b + t, -h / 2 - t, h / 2 + t) - core
    winding.mat("body1")
    # Air fills the hole too: a flux-tangent boundary shaped like a torus would forbid any flux round the core.
    air = occ.Cylinder(occ.Pnt(0, 0, -h / 2 - t - 0.004), occ.Z, r=b + t + 0.004, h=h + 2 * t + 0.008)
    air = air - core - winding
    air.mat("body2")
    mesh = curved_mesh(occ.Glue([core, winding, air]), maxh=0.005, order=ORDER)
    turns, mu_r = 100, 1000.0
    started = time.perf_counter()
    linear = [BodyMagnetics(mu_r), BodyMagnetics(), BodyMagnetics()]
    coil = CoilSpec("winding", 1, turns, 1.0, None, 0, None)
    run = run_magnetostatic(mesh, linear, [coil], ORDER, OPTIONS)
    exact = MU0 * mu_r * turns**2 * h * math.log(b / a) / (2 * math.pi)
    record("mag-toroid-inductance", run.quantities["inductance_H"], exact, run, started)
    assert run.solver_info["inductance_energy_check"] < 1e-6

    # Saturated: 30 A drives H from 19 to 29 kA/m, B from 1.86 to 1.93 T on the M-19 curve.
    started = time.perf_counter()
    curve = BhCurve(checked_table(M19, "core"))
    iron = [BodyMagnetics(bh=curve), BodyMagnetics(), BodyMagnetics()]
    current = 30.0
    run = run_magnetostatic(
        mesh, iron, [CoilSpec("winding", 1, turns, current, None, 0, None)], ORDER, OPTIONS
    )
    assert run.solver_info["newton_iterations"] > 2
    # Later Newton steps reuse an earlier tangent's factor as CG's preconditioner (10 steps, 5 factorizations).
    assert run.solver_info["newton_factorizations"] < run.solver_info["newton_iterations"]
    radii = np.linspace(a + 0.0015, b - 0.0015, 7)
    points = [
        (r * math.cos(q), r * math.sin(q), 0.0) for r, q in zip(radii, np.linspace(0, 5, 7), strict=True)
    ]
    b_num = np.linalg.norm(at(mesh, run.fields.b, points), axis=1)
    b_ref = curve.b_at(turns * current / (2 * math.pi * radii))
    worst = int(np.argmax(np.abs(b_num - b_ref) / b_ref))
    print(f"[magnetics] toroid B(r) {np.round(b_num, 4)} vs curve {np.round(b_ref, 4)}")
    record("mag-toroid-saturated-b", float(b_num[worst]), float(b_ref[worst]), run, started)


def test_coaxial_coils_self_and_mutual_inductance_and_axis_field():
    """A thick solenoid (coil A) and a second coaxial coil (B) in an air sphere ten times their size."""
    coil_a = (0.010, 0.015, -0.005, 0.005)
    coil_b = (0.010, 0.013, 0.012, 0.018)
    n_a, n_b = 200, 120
    body_a = ring(coil_a[0], coil_a[1], coil_a[2], coil_a[3])
    body_a.mat("body0")
    body_b = ring(coil_b[0], coil_b[1], coil_b[2], coil_b[3])
    body_b.mat("body1")
    body_a.maxh = body_b.maxh = 0.0025
    bore = occ.Cylinder(occ.Pnt(0, 0, -0.015), occ.Z, r=coil_a[0], h=0.035)  # the axis, where B is sampled
    bore.mat("body2")
    bore.maxh = 0.0025
    air = occ.Sphere(occ.Pnt(0, 0, 0.005), 0.16) - body_a - body_b - bore
    air.mat("body3")
    mesh = curved_mesh(occ.Glue([body_a, body_b, bore, air]), maxh=0.03, order=ORDER, grading=0.25)
    started = time.perf_counter()
    coils = [
        CoilSpec("A", 0, n_a, 1.0, np.array([0, 0, 1.0]), None, None),
        CoilSpec("B", 1, n_b, 0.0, None, None, None),
    ]
    run = run_magnetostatic(mesh, [BodyMagnetics()] * 4, coils, ORDER, OPTIONS)
    matrix = run.quantities["inductance_matrix_H"]
    l_a = coil_mutual(coil_a, n_a, coil_a, n_a, n=60)
    l_b = coil_mutual(coil_b, n_b, coil_b, n_b, n=60)
    m_ab = coil_mutual(coil_a, n_a, coil_b, n_b)
    record("mag-solenoid-inductance", matrix["A"]["A"], l_a, run, started)
    # ½IᵀLI against the field energy on the curved mesh: 4.3e-6 while the curl-curl form was under-integrated
    # on curved elements (solver.CURVED_BONUS_ORDER), ~2e-12 since.
    check = run.solver_info["inductance_energy_check"]
    print(f"[magnetics] thick solenoid inductance_energy_check {check:.2e}")
    assert check < 1e-9
    record("mag-coils-mutual", matrix["A"]["B"], m_ab, run, started)
    k = matrix["A"]["B"] / math.sqrt(matrix["A"]["A"] * matrix["B"]["B"])
    record("mag-coils-coupling", k, m_ab / math.sqrt(l_a * l_b), run, started)
    # 1 A in A alone: B on the axis inside and outside the winding.
    density = n_a / ((coil_a[1] - coil_a[0]) * (coil_a[3] - coil_a[2]))
    zs = np.array([0.0, 0.004, 0.008, -0.012])
    b_num = at(mesh, run.fields.b, [(1e-5, 0.0, z) for z in zs])[:, 2]
    b_ref = solenoid_axis_field(zs, coil_a[0], coil_a[1], coil_a[3] - coil_a[2], density)
    worst = int(np.argmax(np.abs(b_num - b_ref) / np.abs(b_ref)))
    print(f"[magnetics] solenoid axis B {b_num} vs {b_ref}")
    record("mag-solenoid-axis-b", float(b_num[worst]), float(b_ref[worst]), run, started)
    # The winding direction follows `axis`: +z gives +Bz inside.
    assert b_num[0] > 0


def test_quarter_solenoid_on_symmetry_planes():
    """The thick solenoid of the test above as a quarter model (y ≥ 0, z ≥ 0): the plane z = 0 across its
    axis is flux-normal (B crosses it, the current runs along it: a wall of the winding), the plane y = 0
    through its axis flux-tangent (the current crosses it: the open winding's terminals). The quarter carries
    half the section, so N/2 turns; its inductance ×4 is the whole coil's."""
    coil = (0.010, 0.015, -0.005, 0.005)
    turns = 200
    quarter = occ.Box(occ.Pnt(-1, 0, 0), occ.Pnt(1, 1, 1))
    body = ring(*coil) * quarter
    body.mat("body0")
    body.maxh = 0.0025
    bore = occ.Cylinder(occ.Pnt(0, 0, -0.015), occ.Z, r=coil[0], h=0.035) * quarter
    bore.mat("body1")
    bore.maxh = 0.0025
    air = occ.Sphere(occ.Pnt(0, 0, 0), 0.16) * quarter - body - bore
    air.mat("body2")
    shape = occ.Glue([body, bore, air])
    for face in shape.faces:
        c = face.center
        if abs(c.z) < 1e-12:
            face.name = FLUX_NORMAL_LABEL
        elif abs(c.y) < 1e-12 and coil[0] < abs(c.x) < coil[1]:
            face.name = "coil_in_0" if c.x > 0 else "coil_out_0"  # right-handed about +z
    mesh = curved_mesh(shape, maxh=0.03, order=ORDER, grading=0.25)
    started = time.perf_counter()
    spec = CoilSpec("A", 0, turns / 2, 1.0, None, None, ("coil_in_0", "coil_out_0"))
    run = run_magnetostatic(mesh, [BodyMagnetics()] * 3, [spec], ORDER, OPTIONS)
    whole = 4 * run.quantities["inductance_H"]
    exact = coil_mutual(coil, turns, coil, turns, n=60)
    print(f"[magnetics] quarter solenoid: 4 L = {whole:.6g} H, whole coil by the integral {exact:.6g} H")
    record("mag-quarter-solenoid-inductance", whole, exact, run, started)
    # Bz at the centre against the closed form: the symmetry planes give the whole coil's field.
    density = turns / ((coil[1] - coil[0]) * (coil[3] - coil[2]))
    b_centre = at(mesh, run.fields.b, [(1e-5, 1e-5, 1e-5)])[0, 2]
    b_ref = float(solenoid_axis_field(np.array([0.0]), coil[0], coil[1], coil[3] - coil[2], density)[0])
    print(f"[magnetics] quarter solenoid Bz(0) = {b_centre:.6g} T vs {b_ref:.6g} T")
    assert abs(b_centre - b_ref) / b_ref < 0.01


def test_coaxial_line_inductance_per_length():
    """Solid inner conductor (an open 1-turn winding fed through its end faces), return on the outer
    boundary r = b (flux-tangent: the closed shell carries the return current), a 2 mm slice of line."""
    a, b, length = 1e-3, 3e-3, 2e-3
    inner = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, r=a, h=length)
    inner.mat("body0")
    inner.faces.Min(occ.Z).name = "coil_in_0"
    inner.faces.Max(occ.Z).name = "coil_out_0"
    outer = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, r=b, h=length) - inner
    outer.mat("body1")
    mesh = curved_mesh(occ.Glue([inner, outer]), maxh=0.6e-3, order=ORDER)
    started = time.perf_counter()
    coil = CoilSpec("inner", 0, 1, 1.0, None, None, ("coil_in_0", "coil_out_0"))
    run = run_magnetostatic(mesh, [BodyMagnetics(), BodyMagnetics()], [coil], ORDER, OPTIONS)
    per_length = run.quantities["inductance_H"] / length
    # (μ0/2π) ln(b/a) between the conductors, plus μ0/8π inside the solid inner one.
    exact = MU0 / (2 * math.pi) * (math.log(b / a) + 0.25)
    record("mag-coax-inductance", per_length, exact, run, started)


def test_parallel_bars_force_per_length():
    """Bars 2 × 4 mm, centres 6 mm apart, ±100 A, a 1 mm slice. Half model: the plane between the bars is
    flux-tangent, so the image of the bar in it is the other bar."""
    w, hgt, d, current, length, side = 2e-3, 4e-3, 6e-3, 100.0, 1e-3, 0.12
    bar = occ.Box(occ.Pnt(d / 2 - w / 2, -hgt / 2, 0), occ.Pnt(d / 2 + w / 2, hgt / 2, length))
    bar.mat("body0")
    bar.faces.Min(occ.Z).name = "coil_in_0"
    bar.faces.Max(occ.Z).name = "coil_out_0"
    bar.maxh = 0.7e-3
    air = occ.Box(occ.Pnt(0, -side, 0), occ.Pnt(side, side, length)) - bar
    air.mat("body1")
    mesh = curved_mesh(occ.Glue([bar, air]), maxh=0.01, order=ORDER, grading=0.2)
    started = time.perf_counter()
    coil = CoilSpec("bar", 0, 1, current, None, None, ("coil_in_0", "coil_out_0"))
    run = run_magnetostatic(mesh, [BodyMagnetics(), BodyMagnetics()], [coil], ORDER, OPTIONS, forces=[0])
    force = run.quantities["force_N"]["body0"][0] / length
    exact = bar_force_per_length(w, hgt, d, current)
    print(f"[magnetics] filament estimate μ0I²/2πd = {MU0 * current**2 / (2 * math.pi * d):.5g} N/m")
    record("mag-bars-force", force, exact, run, started)


def test_half_bar_on_a_flux_normal_plane():
    """The bars above halved once more, along their length by the plane y = 0 (flux-normal: the current runs
    along it, B crosses it). The modelled half section carries half the current, 50 A, through its terminals;
    the force on the half bar is half the whole bar's."""
    w, hgt, d, current, length, side = 2e-3, 4e-3, 6e-3, 100.0, 1e-3, 0.12
    bar = occ.Box(occ.Pnt(d / 2 - w / 2, 0, 0), occ.Pnt(d / 2 + w / 2, hgt / 2, length))
    bar.mat("body0")
    bar.faces.Min(occ.Z).name = "coil_in_0"
    bar.faces.Max(occ.Z).name = "coil_out_0"
    bar.maxh = 0.7e-3
    air = occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(side, side, length)) - bar
    air.mat("body1")
    shape = occ.Glue([bar, air])
    for face in shape.faces:
        if abs(face.center.y) < 1e-12:
            face.name = FLUX_NORMAL_LABEL
    mesh = curved_mesh(shape, maxh=0.01, order=ORDER, grading=0.2)
    started = time.perf_counter()
    coil = CoilSpec("bar", 0, 1, current / 2, None, None, ("coil_in_0", "coil_out_0"))
    run = run_magnetostatic(mesh, [BodyMagnetics(), BodyMagnetics()], [coil], ORDER, OPTIONS, forces=[0])
    force = 2 * run.quantities["force_N"]["body0"][0] / length
    exact = bar_force_per_length(w, hgt, d, current)
    print(f"[magnetics] half bar on a flux-normal plane: 2 F' = {force:.6g} N/m vs {exact:.6g} N/m")
    record("mag-half-bar-force", force, exact, run, started)


def test_cylindrical_magnet_axis_field():
    """NdFeB-like magnet (Br = 1.3 T along z, μr = 1 for the closed form), radius 5 mm, length 10 mm; an
    eighth of it in an air sphere: z = 0 flux-normal, the planes through the axis flux-tangent."""
    radius, length, br = 5e-3, 10e-3, 1.3
    octant = occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(1, 1, 1))
    magnet = occ.Cylinder(occ.Pnt(0, 0, -length / 2), occ.Z, r=radius, h=length) * octant
    magnet.mat("body0")
    magnet.maxh = 1.2e-3
    bore = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, r=radius, h=2 * length) * octant - magnet  # the axis beyond
    bore.mat("body1")
    bore.maxh = 1.2e-3
    air = occ.Sphere(occ.Pnt(0, 0, 0), 0.08) * octant - magnet - bore
    air.mat("body2")
    shape = occ.Glue([magnet, bore, air])
    for face in shape.faces:
        if abs(face.center.z) < 1e-12:
            face.name = FLUX_NORMAL_LABEL
    mesh = curved_mesh(shape, maxh=0.02, order=ORDER, grading=0.25)
    started = time.perf_counter()
    bodies = [BodyMagnetics(1.0, remanence=(0.0, 0.0, br)), BodyMagnetics(), BodyMagnetics()]
    run = run_magnetostatic(mesh, bodies, [], ORDER, OPTIONS)
    zs = np.array([0.0, 0.003, 0.0065, 0.009])
    b_num = at(mesh, run.fields.b, [(2e-5, 2e-5, z) for z in zs])[:, 2]
    b_ref = magnet_axis_field(zs, radius, length, br)
    worst = int(np.argmax(np.abs(b_num - b_ref) / b_ref))
    print(f"[magnetics] magnet axis B {b_num} vs {b_ref}")
    record("mag-magnet-axis-b", float(b_num[worst]), float(b_ref[worst]), run, started)


def test_c_core_gap_flux_density():
    """A square C-core (μr = 5000, section 10 × 10 mm, mean path 160 mm, gap 1 mm) with a 200-turn closed
    coil round one leg (its axis found by the engine): B in the gap's middle against μ0NI/(g + ℓ/μr)."""
    s, outer, gap, mu_r, turns, current = 0.01, 0.05, 0.001, 5000.0, 200, 1.0
    frame = occ.Box(occ.Pnt(-outer / 2, -outer / 2, -s / 2), occ.Pnt(outer / 2, outer / 2, s / 2))
    frame -= occ.Box(occ.Pnt(-outer / 2 + s, -outer / 2 + s, -s), occ.Pnt(outer / 2 - s, outer / 2 - s, s))
    cut = occ.Box(occ.Pnt(outer / 2 - s, -gap / 2, -s / 2), occ.Pnt(outer / 2, gap / 2, s / 2))
    core = frame - cut
    core.mat("body0")
    cut.mat("body3")  # the gap's air, meshed finer
    cut.maxh = 0.001
    coil = occ.Box(
        occ.Pnt(-outer / 2 - 0.003, -0.008, -s / 2 - 0.003),
        occ.Pnt(-outer / 2 + s + 0.003, 0.008, s / 2 + 0.003),
    )
    coil -= occ.Box(occ.Pnt(-outer / 2, -0.01, -s / 2), occ.Pnt(-outer / 2 + s, 0.01, s / 2))
    coil.mat("body1")
    air = occ.Sphere(occ.Pnt(0, 0, 0), 0.2) - frame - coil
    air.mat("body2")
    core.maxh = 0.004
    mesh = curved_mesh(occ.Glue([core, coil, air, cut]), maxh=0.04, order=ORDER, grading=0.3)
    started = time.perf_counter()
    bodies = [BodyMagnetics(mu_r), BodyMagnetics(), BodyMagnetics(), BodyMagnetics()]
    run = run_magnetostatic(
        mesh, bodies, [CoilSpec("coil", 1, turns, current, None, None, None)], ORDER, OPTIONS
    )
    path = 4 * (outer - s) - gap
    exact = MU0 * turns * current / (gap + path / mu_r)
    b_gap = abs(at(mesh, run.fields.b, [((outer - s) / 2, 0.0, 0.0)])[0, 1])
    record("mag-c-core-gap-b", b_gap, exact, run, started)
