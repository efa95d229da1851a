"""An ElasticSetup on the NGSolve mesh: which displacement components its supports fix, a support's region, and
the load vector of its forces, pressures and gravity.

Loads: a force load is a uniform traction F/A over its faces (A their area); a pressure p acts as the
traction −p n (n the outward normal: positive pressure pushes into the body); gravity is the body force ρ g;
a thermal load ∫ σ_th : ε(v) (core/elasticity/thermal.py), which adds no net force.
"""

import ngsolve as ng
import numpy as np

from fieldline_engine.core.elasticity.operator import ComponentDirichlet, Elasticity
from fieldline_engine.core.elasticity.setup import ElasticSetup, Support


def component_dirichlet(setup: ElasticSetup) -> ComponentDirichlet:
    by_codim: dict[int, tuple[list[str], list[str], list[str]]] = {c: ([], [], []) for c in (1, 2, 3)}
    for s in setup.supports:
        for k, v in enumerate(s.values):
            if v is not None:
                by_codim[s.codim][k].append(s.label)
    return ComponentDirichlet(*by_codim[1], edges=by_codim[2], points=by_codim[3])


def support_region(mesh: ng.Mesh, support: Support) -> tuple[object, ng.Region]:
    """The support's region and its kind: faces (BND), an edge (BBND) or points (BBBND)."""
    if support.codim == 2:
        return ng.BBND, mesh.BBoundaries(support.label)
    if support.codim == 3:
        return ng.BBBND, mesh.BBBoundaries(support.label)
    return ng.BND, mesh.Boundaries(support.label)


def applied_load(mesh: ng.Mesh, setup: ElasticSetup, elasticity: Elasticity, v: ng.CoefficientFunction):
    """The load linear form f(v) and the total applied force (N)."""
    f = ng.LinearForm(elasticity.fes)
    total = np.zeros(3)
    n = ng.specialcf.normal(3)
    for load in setup.forces:
        area = ng.Integrate(ng.CF(1.0) * ng.ds(load.label), mesh)
        traction = ng.CF(tuple(c / area for c in load.force))
        f += traction * v * ng.ds(load.label)
        total += np.asarray(load.force)
    for load in setup.pressures:
        f += -load.pressure * n * v * ng.ds(load.label)
        total += -load.pressure * np.array([ng.Integrate(n[k] * ng.ds(load.label), mesh) for k in range(3)])
    if any(setup.gravity):
        g = ng.CF(setup.gravity)
        f += elasticity.rho * g * v * ng.dx
        mass = ng.Integrate(elasticity.rho * ng.dx, mesh)
        total += mass * np.asarray(setup.gravity)
    if elasticity.eigen_stress is not None:
        f += ng.InnerProduct(elasticity.eigen_stress, elasticity.strain(v)) * ng.dx
    return f, total
