"""The magnetic field of a steady (or quasi-static) current: ∇×(ν∇×A) = J in HCurl, H = ν∇×A.

Boundary: n×A = 0 on the model's outer boundary, i.e. B·n = 0 there: the outer boundary behaves as a
closed perfectly conducting shell that carries the return current. A wire coaxial with a cylindrical
model therefore sees exactly H = I/(2πr). Put air around conductors to see the field outside them.

Gauge: the HCurl space drops its higher-order gradients (`nograds`) and a tiny mass term fixes the
lowest-order ones. The source is made discretely divergence-free first (J₀ = J − ∇ψ with ψ ∈ H1₀ of
the matching order) so that it is orthogonal to every gradient left in the space; currents that enter
at terminals inside the model then close through ∇ψ instead of polluting A.
"""

from dataclasses import dataclass
from typing import Any

import ngsolve as ng

from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.core.linear_solve import LinearSolver, SolveReport
from fieldline_engine.limits import parallel
from fieldline_engine.mesh.ngsolve_mesh import bounding_box_diagonal, outer_boundary
from fieldline_engine.protocol import SILENT


@dataclass
class MagneticSolution:
    h_field: ng.CoefficientFunction
    b_field: ng.CoefficientFunction
    vector_potential: ng.GridFunction
    energy: float  # ½∫ν|B|² (time average ¼∫ for phasors)
    ndof: int
    report: SolveReport


def solve_magnetostatics(
    mesh: ng.Mesh,
    current_density: ng.CoefficientFunction,
    nu: ng.CoefficientFunction,
    h1_order: int,
    options: SolverOptions,
    complex_valued: bool = False,
    progress: Any = None,
) -> MagneticSolution:
    progress = progress or SILENT
    order = h1_order  # curl of order-p Nédélec is degree p−1, like E = −∇φ of order-p H1

    # 1) Divergence-free source: ψ ∈ H1₀(order+1), ∫∇ψ·∇q = ∫J·∇q, J₀ = J − ∇ψ.
    progress(0.0, "Magnetic field: making the current divergence-free")
    outer = outer_boundary(mesh)
    h1 = ng.H1(mesh, order=order + 1, complex=complex_valued, dirichlet=outer)
    p, q = h1.TnT()
    lap = ng.BilinearForm(ng.grad(p) * ng.grad(q) * ng.dx, symmetric=True)
    lap_solver = LinearSolver(lap, h1, options.choice, options.tolerance * 1e-2, options.max_iterations)
    rhs_psi = ng.LinearForm(current_density * ng.grad(q) * ng.dx)
    with parallel(h1.ndof):
        lap.Assemble()
        rhs_psi.Assemble()
    lap_solver.prepare(h1.FreeDofs())
    psi = ng.GridFunction(h1)
    lap_solver.solve(rhs_psi.vec, psi, "Magnetic field: source projection")
    source = current_density - ng.grad(psi)

    # 2) Curl-curl with a relative 1e-8 mass term on the gradients left in the space.
    progress(0.3, "Magnetic field: assembling the curl-curl system")
    hc = ng.HCurl(mesh, order=order, complex=complex_valued, nograds=True, dirichlet=outer)
    u, v = hc.TnT()
    size = bounding_box_diagonal(mesh)
    nu_scale = ng.Integrate(ng.Norm(nu) if nu.dim > 1 else nu, mesh) / ng.Integrate(ng.CF(1.0), mesh)
    delta = 1e-8 * float(abs(nu_scale)) / size**2
    a = ng.BilinearForm(hc, symmetric=True)
    a += ng.InnerProduct(nu * ng.curl(u), ng.curl(v)) * ng.dx + delta * u * v * ng.dx
    f = ng.LinearForm(source * v * ng.dx)
    solver = LinearSolver(
        a,
        hc,
        options.choice,
        options.tolerance,
        options.max_iterations,
        kind="hcurl",
        progress=lambda frac, msg: progress(0.4 + 0.6 * frac, msg),
    )
    with parallel(hc.ndof):
        a.Assemble()
        f.Assemble()
    solver.prepare(hc.FreeDofs())
    gf_a = ng.GridFunction(hc)
    progress(0.5, "Magnetic field: solving")
    solver.solve(f.vec, gf_a, "Magnetic field")
    b = ng.curl(gf_a)
    h = nu * b
    if complex_valued:  # time average of a phasor field: ¼ Re ∫ H·B*
        hb = ng.InnerProduct(h.real, b.real) + ng.InnerProduct(h.imag, b.imag)
        energy = 0.25 * ng.Integrate(hb, mesh)
    else:
        energy = 0.5 * ng.Integrate(ng.InnerProduct(h, b), mesh)
    report = solver.report
    return MagneticSolution(h, b, gf_a, float(energy), int(hc.ndof), report)
