"""Joule heating: the same config's DC conduction setup solved by the EM family first; its Joule heat
density σ|E|² (a cell field of the EM Solution) heats the bodies. Thermal imports nothing of EM: it asks the
registry for the `em` analysis and reads only the Solution it returns (docs/multiphysics.md §4)."""

from typing import Any

import ngsolve as ng

from fieldline_engine.core.registry import analysis_for
from fieldline_engine.core.solution import Solution
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.ngsolve_mesh import element_order
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.protocol import ProgressSpan

# What the conduction solve reads of the config: its voltages, conductivities, order and solver. Thermal
# keys with EM meanings elsewhere (neumannConditions is a heat flux here, not a current) stay out.
CONDUCTION_KEYS = (
    "dirichletFaceConditions",
    "dirichletConditions",
    "referenceNode",
    "defaultConductivity",
    "defaultPermittivity",
    "bodyMaterials",
    "meshOrder",
    "useCurvedGeometry",
    "useCurvedMesh",
    "linearSolver",
    "tolerance",
    "maxIterations",
)


def conduction_solution(model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
    if not config.get("dirichletFaceConditions") and not config.get("dirichletConditions"):
        raise InvalidInput(
            "Joule heating needs the conduction setup: set voltages on two or more face groups "
            "(dirichletFaceConditions) and a conductivity for the conducting bodies."
        )
    em_config = {k: config[k] for k in CONDUCTION_KEYS if k in config}
    em_config.update(analysisType="em", frequency=0.0)
    solution = analysis_for(em_config).solve(model, em_config, progress)
    if solution.field("joule_heat_density") is None:
        raise InvalidInput(
            "Joule heating: no current flows. Give the conducting bodies a conductivity above 0 "
            "(defaultConductivity or per body) and put different voltages on their terminals."
        )
    return solution


def joule_source(mesh: ng.Mesh, model: TetModel, solution: Solution) -> ng.CoefficientFunction:
    """The conduction solve's σ|E|² per tetrahedron as a piecewise-constant heat source on `mesh`."""
    field = solution.field("joule_heat_density")
    assert field is not None
    space = ng.L2(mesh, order=0)
    gf = ng.GridFunction(space)
    gf.vec.FV().NumPy()[:] = field.values[element_order(model)]
    return gf
