"""Time-harmonic eddy currents (e^{+jωt}): the modified vector potential A* on Nédélec elements,

    ∇×(ν∇×A) + jωσA = J_s + Σ_k U_k σ e_k,     E = −jωA − Σ_k U_k ∇v_k,   J = σE,

with n×A = 0 on the outer boundary. In a conductor the electric scalar potential is absorbed into A (the
A* or "A–φ with φ = 0" gauge): the space keeps all its gradients there (`gradientdomains`), so ∇·J = 0 and
n·J = 0 on the conductor's skin hold weakly, with no extra unknown. In non-conducting bodies A is gauged
the magnetostatic way: no higher-order gradients, a relative 1e-8 mass term on the lowest-order ones, and a
stranded coil's source J_s made discretely divergence-free first (no eddy currents in a stranded coil: σ is
0 there whatever its material says).

A massive conductor fed a total current I_k (`solidConductors`) gets a voltage source: e_k = −∇v_k is the
field of one volt across it — v_k jumps by one across a cut of a closed loop, or runs from 1 on its in
terminal to 0 on its out terminal — and U_k is the unknown voltage (per turn) that makes its current
I_k = ∫ J·e_k dV (the flux of J through any section; exact for the weakly divergence-free J) equal the
given one. The system is factored once; the coil source and each conductor's unit voltage are solved as
right-hand sides and the voltages follow from the conductors' admittance matrix Y U = I − I₀.
"""

from dataclasses import dataclass, field
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.core.linear_solve import LinearSolver, SolveReport
from fieldline_engine.em.magnetics.solver import CURVED_BONUS_ORDER, curved_mesh
from fieldline_engine.limits import parallel
from fieldline_engine.mesh.ngsolve_mesh import body_of_domain, bounding_box_diagonal, outer_boundary
from fieldline_engine.protocol import SILENT


@dataclass
class MassiveConductor:
    """A solid conductor fed a total current: skin and proximity effect inside it."""

    name: str
    body: int  # body id (mesh material body<k>)
    unit_field: ng.CoefficientFunction  # E of a unit voltage across it (V/m per V), zero outside it
    current: complex  # peak phasor of the total current, A


@dataclass
class EddySolution:
    vector_potential: ng.GridFunction
    b_field: ng.CoefficientFunction
    h_field: ng.CoefficientFunction
    induced_current_density: ng.CoefficientFunction  # σE in the conductors (eddy + fed), 0 elsewhere
    voltages: list[complex]  # per massive conductor: the source voltage U_k (V), e^{+jωt}
    currents: list[complex]  # per massive conductor: the total current reached (A)
    energy: float  # time-averaged magnetic energy ¼ Re ∫ H·B*, J
    ndof: int
    report: SolveReport
    conducting_bodies: list[int] = field(default_factory=list)


def body_mask(mesh: ng.Mesh, bodies: set[int]) -> ng.Region:
    mask = ng.BitArray(len(mesh.GetMaterials()))
    mask.Clear()
    for domain in range(len(mask)):
        if body_of_domain(mesh, domain + 1) in bodies:
            mask.Set(domain)
    return ng.Region(mesh, ng.VOL, mask)


def solve_eddy_current(
    mesh: ng.Mesh,
    nu: ng.CoefficientFunction,
    conductivity: dict[int, float],
    source: ng.CoefficientFunction | None,
    conductors: list[MassiveConductor],
    omega: float,
    order: int,
    options: SolverOptions,
    progress: Any = None,
    flux_tangent: ng.Region | None = None,
) -> EddySolution:
    """`conductivity`: body id → σ (S/m) of the bodies that carry induced currents (stranded coils left
    out); `source`: the stranded coils' current density J_s (A/m², complex), or None; `flux_tangent`: the
    faces where n×A = 0 (n·B = 0), by default the whole outer boundary. The other outer faces are
    flux-normal (n×H = 0: the natural condition, a symmetry plane the field crosses)."""
    progress = progress or SILENT
    conducting = {b for b, s in conductivity.items() if s > 0}
    conducting |= {c.body for c in conductors}
    missing = [c.name for c in conductors if conductivity.get(c.body, 0.0) <= 0]
    if missing:
        raise ValueError(f"solid conductor(s) without conductivity: {', '.join(missing)}")
    sigma = mesh.MaterialCF({f"body{b}": float(conductivity[b]) for b in conducting}, default=0.0)
    outer = outer_boundary(mesh) if flux_tangent is None else flux_tangent
    materials = mesh.GetMaterials()
    grad_domains = [1 if body_of_domain(mesh, d + 1) in conducting else 0 for d in range(len(materials))]

    fes = ng.HCurl(mesh, order=order, complex=True, dirichlet=outer, gradientdomains=grad_domains)
    u, v = fes.TnT()
    size = bounding_box_diagonal(mesh)
    nu_scale = ng.Integrate(ng.Norm(nu) if nu.dim > 1 else nu, mesh) / ng.Integrate(ng.CF(1.0), mesh)
    delta = 1e-8 * float(abs(nu_scale)) / size**2
    insulators = body_mask(mesh, {body_of_domain(mesh, d + 1) for d in range(len(materials))} - conducting)
    a = ng.BilinearForm(fes, symmetric=True)
    # One order more on curved elements, as magnetostatics (solver.CURVED_BONUS_ORDER): the default rule
    # under-integrates the rational curl-curl integrand there (a curved billet in a coil: the coil's ½XI²
    # and 2ωW disagreed by 2.9e-7, 1.1e-10 on its straight mesh).
    dx = ng.dx(bonus_intorder=CURVED_BONUS_ORDER if curved_mesh(mesh) else 0)
    a += ng.InnerProduct(nu * ng.curl(u), ng.curl(v)) * dx
    a += 1j * omega * sigma * u * v * dx
    a += delta * u * v * ng.dx(definedon=insulators)
    solver = LinearSolver(
        a,
        fes,
        options.choice,
        options.tolerance,
        options.max_iterations,
        kind="hcurl",
        progress=lambda frac, msg: progress(0.3 + 0.6 * frac, msg),
    )
    progress(0.05, "Eddy currents: assembling the curl-curl system")
    with parallel(fes.ndof):
        a.Assemble()
    solver.prepare(fes.FreeDofs())

    rhs: list[ng.LinearForm] = []
    if source is not None:
        rhs.append(ng.LinearForm(_divergence_free(mesh, source, order, options, outer) * v * ng.dx))
    for c in conductors:
        rhs.append(
            ng.LinearForm(
                float(conductivity[c.body]) * c.unit_field * v * ng.dx(definedon=body_mask(mesh, {c.body}))
            )
        )
    solutions: list[ng.GridFunction] = []
    for k, lf in enumerate(rhs):
        progress(0.3 + 0.6 * k / max(1, len(rhs)), "Eddy currents: solving")
        with parallel(fes.ndof):
            lf.Assemble()
        gf = ng.GridFunction(fes)
        solver.solve(lf.vec, gf, "Eddy currents")
        solutions.append(gf)

    # Superpose: A = A₀ + Σ U_k A_k with the voltages that give each conductor its current.
    base = solutions[0] if source is not None else None
    unit = solutions[1:] if source is not None else solutions
    n = len(conductors)
    regions = [body_mask(mesh, {c.body}) for c in conductors]

    def current_through(k: int, gf: ng.GridFunction | None, fed: int | None) -> complex:
        c = conductors[k]
        j = -1j * omega * sigma * gf if gf is not None else ng.CF((0, 0, 0))
        if fed == k:
            j = j + sigma * c.unit_field
        return complex(ng.Integrate(ng.InnerProduct(j, c.unit_field), mesh, definedon=regions[k]))

    voltages = np.zeros(n, dtype=complex)
    if n:
        y = np.array([[current_through(k, unit[m], m) for m in range(n)] for k in range(n)])
        i0 = np.array([current_through(k, base, None) for k in range(n)]) if base is not None else np.zeros(n)
        target = np.array([complex(c.current) for c in conductors])
        voltages = np.linalg.solve(y, target - i0)
    total = ng.GridFunction(fes)
    total.vec[:] = 0.0
    if base is not None:
        total.vec.data += base.vec
    for k in range(n):
        total.vec.data += complex(voltages[k]) * unit[k].vec

    induced: ng.CoefficientFunction = -1j * omega * sigma * total
    for k, c in enumerate(conductors):
        induced = induced + complex(voltages[k]) * float(conductivity[c.body]) * c.unit_field * _indicator(
            mesh, c.body
        )
    currents = []
    for k, c in enumerate(conductors):
        currents.append(
            complex(ng.Integrate(ng.InnerProduct(induced, c.unit_field), mesh, definedon=regions[k]))
        )
    b = ng.curl(total)
    h = nu * b
    hb = ng.InnerProduct(h.real, b.real) + ng.InnerProduct(h.imag, b.imag)
    energy = 0.25 * float(ng.Integrate(hb, mesh))
    progress(1.0, "Eddy currents: solved")
    return EddySolution(
        vector_potential=total,
        b_field=b,
        h_field=h,
        induced_current_density=induced,
        voltages=[complex(x) for x in voltages],
        currents=currents,
        energy=energy,
        ndof=int(sum(fes.FreeDofs())),
        report=solver.report,
        conducting_bodies=sorted(conducting),
    )


def _indicator(mesh: ng.Mesh, body: int) -> ng.CoefficientFunction:
    return mesh.MaterialCF({f"body{body}": 1.0}, default=0.0)


def _divergence_free(
    mesh: ng.Mesh, source: ng.CoefficientFunction, order: int, options: SolverOptions, fixed: ng.Region
) -> ng.CoefficientFunction:
    """J_s − ∇ψ with ψ ∈ H1₀ of one order more: orthogonal to every gradient of the space, so the gauge
    term does not see it (as magnetostatics does)."""
    h1 = ng.H1(mesh, order=order + 1, complex=True, dirichlet=fixed)
    p, q = h1.TnT()
    lap = ng.BilinearForm(ng.grad(p) * ng.grad(q) * ng.dx, symmetric=True)
    if not fixed.Mask().NumSet():  # every outer face flux-normal: ψ is defined up to a constant
        lap += 1e-10 / bounding_box_diagonal(mesh) ** 2 * p * q * ng.dx
    solver = LinearSolver(lap, h1, options.choice, options.tolerance * 1e-2, options.max_iterations)
    f = ng.LinearForm(source * ng.grad(q) * ng.dx)
    with parallel(h1.ndof):
        lap.Assemble()
        f.Assemble()
    solver.prepare(h1.FreeDofs())
    psi = ng.GridFunction(h1)
    solver.solve(f.vec, psi, "Eddy currents: source projection")
    return source - ng.grad(psi)
