"""Magnetostatics in the vector potential: find A ∈ H(curl) with n×A = 0 on flux-tangent faces minimising

    Π(A) = Σ_bodies ∫ w(curl A) dV − ∫ J₀·A dV + ½ε∫|A|² dV,

w(B) = ½ν|B − Br|² in linear bodies and magnets (ν = 1/(μ0 μr), μr the recoil permeability of a magnet),
w(B) = ∫₀^|B| H(b) db on a B–H curve. Π is convex (the curve is monotone), so Newton's method with a step
halved until Π falls converges from A = 0; a linear model converges in one step.

Gauge: lowest-order Nédélec gradients stay in the space and a mass term ε relative 1e-8 of ν/size² fixes
them; higher-order gradients are left out (`nograds`). The coils' current densities are exactly
divergence-free Raviart–Thomas fields with no flow through the coils' walls (coil_paths.py), so the source
is orthogonal to every gradient in the space without a projection.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

import ngsolve as ng
import numpy as np

from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.core.linear_solve import LinearSolver, SolveReport
from fieldline_engine.em.constants import MU0
from fieldline_engine.em.magnetics.bh_curve import BhCurve
from fieldline_engine.errors import EngineError
from fieldline_engine.limits import parallel
from fieldline_engine.mesh.ngsolve_mesh import bounding_box_diagonal

NEWTON_TOLERANCE = 1e-8  # relative residual (the dual norm through the Newton step)
NEWTON_MAX_STEPS = 40
SMALLEST_STEP = 1.0 / 1024
# Newton steps after the first solve their tangent by CG preconditioned with the factor (or preconditioner)
# of an earlier tangent, to this relative residual, and factor anew only when CG needs more iterations than
# this: the steps are the same Newton steps (the convergence check is unchanged), without a factorization each.
# `auto` at order 1 factors up to this many unknowns and above uses CG with the auxiliary-space AMG
# (core/hcurl_aux.py). bench/magnetics toroid, a warmed job (as the fork server runs it): 8.8 k unknowns, CG
# 0.34–0.43 vs Cholesky 0.39–0.46 CPU s; 16 k, 0.55–0.62 vs 0.88–0.95; 57 k, whole process 0.82× the
# factorization's CPU time and 294 vs 821 MB peak.
AUX_SPACE_FROM_DOFS = 10_000
REUSE_TOLERANCE = 1e-10
REUSE_MAX_ITERATIONS = 10
# An inexact Newton step (Eisenstat–Walker): the tangent is solved to a relative residual of the last step's
# relative Newton residual (superlinear convergence kept), at most FORCING_LOOSEST, at least REUSE_TOLERANCE.
FORCING_LOOSEST = 1e-2


# On curved elements ν curl u·curl v is a rational function, and NGSolve's default rule (exact for the
# polynomial of straight elements) under-integrates it: the thick solenoid's assembled energy ½a(A, A) was
# 4.3e-6 below the field energy ∫½ν|B|² integrated to convergence, which is what the inductance-energy
# check saw. One order more makes them agree to 5e-10 (a still higher order changes nothing).
CURVED_BONUS_ORDER = 1


def curved_mesh(mesh: ng.Mesh) -> bool:
    """Curved onto CAD (Mesh.Curve) or by the uploaded-surface reconstruction (SetDeformation)."""
    return mesh.GetCurveOrder() > 1 or mesh.deformation is not None


def exact_order(mesh: ng.Mesh, degree: int) -> int:
    """The integration order for an integrand that is a polynomial of `degree` on straight tetrahedra (the
    rule is then exact, the same value as any higher one); on curved ones it is not a polynomial, and
    NGSolve's default order 5 is kept. ng.Integrate's default on the toroid bench's straight mesh spent
    ≈ 5× the points an exact rule needs (energy, flux linkage and coil-path integrals: ≈ 0.02 CPU s)."""
    return 5 if curved_mesh(mesh) else max(degree, 0)


@dataclass
class BodyMagnetics:
    relative_permeability: float = 1.0  # the recoil permeability of a magnet
    remanence: tuple[float, float, float] | None = None  # Br (T)
    bh: BhCurve | None = None

    @property
    def nu(self) -> float:
        return 1.0 / (MU0 * self.relative_permeability)


@dataclass
class MagnetostaticFields:
    mesh: ng.Mesh
    potential: ng.GridFunction
    b: ng.CoefficientFunction
    h: ng.CoefficientFunction
    source: ng.CoefficientFunction  # J, the coils' current density (A/m²)
    energy: float  # ∫ w(B) dV: the stored magnetic energy (J)
    ndof: int
    newton_steps: int
    newton_residual: float
    preparations: int  # factorizations (or preconditioner set-ups) of the Newton tangent
    report: SolveReport
    solver: LinearSolver
    space: ng.FESpace
    coil_sources: list[ng.GridFunction | ng.CoefficientFunction] = field(default_factory=list)
    nonlinear: bool = False


def _group(mesh: ng.Mesh, bodies: list[int]) -> ng.Region:
    return mesh.Materials("|".join(f"body{i}" for i in bodies) if bodies else "^$")


def solve_magnetostatic(
    mesh: ng.Mesh,
    bodies: list[BodyMagnetics],
    coil_currents: list[tuple[ng.CoefficientFunction, float]],
    order: int,
    flux_tangent: str,
    options: SolverOptions,
    progress: Callable[[float, str], None] = lambda _f, _m: None,
) -> MagnetostaticFields:
    """`coil_currents`: (turn density — J per ampere-turn —, ampere-turns N·I) per coil. `flux_tangent`:
    the boundary names (a regex) where n×A = 0."""
    linear = [i for i, b in enumerate(bodies) if b.bh is None]
    curved = [i for i, b in enumerate(bodies) if b.bh is not None]
    nu = mesh.MaterialCF({f"body{i}": bodies[i].nu for i in linear}, default=1.0 / MU0)
    magnets = {f"body{i}": ng.CF(b.remanence) for i, b in enumerate(bodies) if b.remanence is not None}
    br = mesh.MaterialCF(magnets, default=ng.CF((0.0, 0.0, 0.0))) if magnets else None

    # The coil densities are exactly divergence-free already (coil_paths.py): no projection.
    sources = [density for density, _ in coil_currents]
    source = sum((d * turns for d, turns in coil_currents), ng.CF((0, 0, 0)))

    fes = ng.HCurl(mesh, order=order, nograds=True, dirichlet=flux_tangent)
    size = bounding_box_diagonal(mesh)
    nu_max = max(b.nu for b in bodies) if bodies else 1.0 / MU0
    eps = 1e-8 * nu_max / size**2
    lin = _group(mesh, linear)
    dx_lin = ng.dx(definedon=lin, bonus_intorder=CURVED_BONUS_ORDER if curved_mesh(mesh) else 0)
    curves = {i: bodies[i].bh for i in curved}
    if curved:
        a = _energy_form(fes, nu, br, curves, source if coil_currents else None, dx_lin, eps)
        load = None
    else:
        a, load = _linear_forms(fes, nu, br, source if coil_currents else None, dx_lin, eps)
    solver = LinearSolver(
        a,
        fes,
        options.choice,
        options.tolerance,
        options.max_iterations,
        kind="hcurl",
        progress=lambda f, m: progress(0.3 + 0.6 * f, m),
        direct_max=AUX_SPACE_FROM_DOFS if order == 1 else None,
    )
    gf = ng.GridFunction(fes)
    gf.vec[:] = 0.0
    if load is None:
        steps, residual, preparations = _newton(a, fes, gf, solver, True, progress)
    else:
        steps, residual, preparations = _linear(a, load, fes, gf, solver, progress)
    b_field = ng.curl(gf)
    h_parts = {
        f"body{i}": bodies[i].nu * (b_field - ng.CF(bodies[i].remanence or (0.0, 0.0, 0.0))) for i in linear
    }
    for i, curve in curves.items():
        norm_b = ng.sqrt(1e-24 + b_field * b_field)
        h_parts[f"body{i}"] = curve.h_of_b(norm_b) / norm_b * b_field
    h_field = mesh.MaterialCF(h_parts, default=b_field / MU0)
    energy = _stored_energy(mesh, bodies, linear, curves, b_field, br, nu, order)
    return MagnetostaticFields(
        mesh,
        gf,
        b_field,
        h_field,
        source,
        energy,
        int(fes.ndof),
        steps,
        residual,
        preparations,
        solver.report,
        solver,
        fes,
        sources,
        bool(curved),
    )


def _stored_energy(mesh, bodies, linear, curves, b_field, br, nu, order) -> float:
    lin = _group(mesh, linear)
    rule = exact_order(mesh, 2 * (order - 1))  # curl of order-p Nédélec: degree p − 1
    if br is None:
        w = 0.5 * ng.Integrate(nu * b_field * b_field, mesh, order=rule, definedon=lin)
    else:
        w = 0.5 * ng.Integrate(nu * (b_field - br) * (b_field - br), mesh, order=rule, definedon=lin)
    for i, curve in curves.items():
        zero = curve.energy(0.0)
        region = mesh.Materials(f"body{i}")
        w += ng.Integrate(
            (curve.energy(ng.sqrt(1e-12 + b_field * b_field)) - zero) * ng.dx(definedon=region), mesh
        )
    return float(w)


def solve_tangent(
    solver: LinearSolver,
    free: ng.BitArray,
    rhs: ng.BaseVector,
    gf: ng.GridFunction,
    label: str,
    reuse: bool,
    forcing: float = REUSE_TOLERANCE,
) -> bool:
    """Solves the form's freshly assembled tangent: with `reuse`, by CG preconditioned with the factor of an
    earlier tangent to the relative residual `forcing` (an inexact Newton step; never looser than a CG solver's
    own tolerance) when that takes at most REUSE_MAX_ITERATIONS (a CG solver: twice its fresh solves'); else
    factored (prepared) anew, which it returns True for."""
    if solver.method == "direct":
        tolerance, most = forcing, REUSE_MAX_ITERATIONS
    else:
        tolerance = min(solver.tolerance, forcing)
        most = 2 * max(solver.report.iterations or [REUSE_MAX_ITERATIONS])
    reused = reuse and solver.can_reuse() and solver.solve_reusing(rhs, gf, tolerance, most) is not None
    if reused:
        return False
    solver.prepare(free)
    solver.solve(rhs, gf, label)
    return True


def _energy_form(fes, nu, br, curves, source, dx_lin, eps) -> ng.BilinearForm:
    """Π as a form NGSolve linearises (B–H curves: Newton)."""
    u = fes.TrialFunction()
    b_u = ng.curl(u)
    a = ng.BilinearForm(fes, symmetric=True)
    if br is None:
        a += ng.Variation(0.5 * nu * b_u * b_u * dx_lin)
    else:
        a += ng.Variation(0.5 * nu * (b_u - br) * (b_u - br) * dx_lin)
    for i, curve in curves.items():
        a += ng.Variation(
            curve.energy(ng.sqrt(1e-12 + b_u * b_u)) * ng.dx(definedon=fes.mesh.Materials(f"body{i}"))
        )
    a += ng.Variation(0.5 * eps * u * u * ng.dx)
    if source is not None:
        a += ng.Variation(-source * u * ng.dx)
    return a


def _linear_forms(fes, nu, br, source, dx_lin, eps) -> tuple[ng.BilinearForm, ng.LinearForm]:
    """A quadratic Π (no B–H curve): its minimum solves a(A, v) = ∫J₀·v + ∫ν Br·curl v, assembled as a bilinear
    and a linear form — the matrix AssembleLinearization of Π gives, without the symbolic linearisation and the
    residual's Apply (≈ 0.1 of the 0.6 CPU s of a 16 k-unknown toroid job)."""
    u, v = fes.TnT()
    a = ng.BilinearForm(fes, symmetric=True)
    a += nu * ng.curl(u) * ng.curl(v) * dx_lin
    a += eps * u * v * ng.dx
    f = ng.LinearForm(fes)
    if source is not None:
        f += source * v * ng.dx
    if br is not None:
        f += nu * br * ng.curl(v) * dx_lin
    return a, f


def _linear(a, f, fes, gf, solver: LinearSolver, progress) -> tuple[int, float, int]:
    """One solve; (steps, relative residual, factorizations) as _newton reports them."""
    progress(0.15, "Magnetic field")
    with parallel(fes.ndof):
        a.Assemble()
        f.Assemble()
    solver.prepare(fes.FreeDofs())
    solver.solve(f.vec, gf, "Magnetic field")
    return 1, 0.0, 1


def _newton(a, fes, gf, solver: LinearSolver, nonlinear: bool, progress) -> tuple[int, float, int]:
    """Damped Newton on Π: each step solves the linearisation, then halves until Π falls. Returns the steps
    taken, the final relative residual and how many times the tangent was factored (or preconditioned)."""
    free = fes.FreeDofs()
    residual = gf.vec.CreateVector()
    step = gf.vec.CreateVector()
    trial = gf.vec.CreateVector()
    first = None
    preparations = 0
    relative = 1.0
    for k in range(1, NEWTON_MAX_STEPS + 1):
        with parallel(fes.ndof):
            a.AssembleLinearization(gf.vec)
            a.Apply(gf.vec, residual)
        correction = ng.GridFunction(fes)
        correction.vec[:] = 0.0
        progress(
            min(0.9, 0.1 + 0.05 * k), f"Magnetic field: Newton step {k}" if nonlinear else "Magnetic field"
        )
        forcing = min(FORCING_LOOSEST, max(REUSE_TOLERANCE, relative))
        preparations += solve_tangent(
            solver, free, residual, correction, "Magnetic field", reuse=k > 1, forcing=forcing
        )
        step.data = correction.vec
        if not nonlinear:  # a quadratic Π: the full step is its minimum, no line search
            gf.vec.data -= step
            return k, 0.0, preparations
        decrement = abs(float(ng.InnerProduct(step, residual)))  # the Newton decrement squared
        if first is None:
            first = max(decrement, 1e-300)
        energy = a.Energy(gf.vec)
        length = 1.0
        while True:
            trial.data = gf.vec - length * step
            if a.Energy(trial) <= energy + 1e-12 * abs(energy) or length <= SMALLEST_STEP:
                break
            length /= 2
        gf.vec.data = trial
        relative = float(np.sqrt(decrement / first))
        if relative < NEWTON_TOLERANCE or decrement == 0.0:
            return k, relative, preparations
    raise EngineError(
        "nonlinear_no_convergence",
        f"The nonlinear magnetic solve did not converge in {NEWTON_MAX_STEPS} Newton steps (relative residual "
        f"{relative:.2e}, target {NEWTON_TOLERANCE:g}). Check the B–H curves (a curve must rise steadily) and "
        "the coil currents.",
    )
