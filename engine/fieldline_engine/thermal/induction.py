"""Induction heating: the same config's eddy-current setup (coils, solid conductors, frequency, conductivities)
solved by the EM family first; its time-averaged ohmic loss density |J|²/2σ (the `loss_density` cell field
of the eddy-current Solution: eddy currents and coil copper) heats the bodies. Thermal imports nothing of
EM: it asks the registry for the `eddy-current` analysis and reads only the Solution it returns
(docs/multiphysics.md §4), as Joule heating does with `em`."""

from typing import Any

import ngsolve as ng

from fieldline_engine.core.registry import analysis_for
from fieldline_engine.core.solution import Solution
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.ngsolve_mesh import element_order
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.protocol import ProgressSpan

# What the eddy-current solve reads of the config. Thermal keys with other meanings stay out.
EDDY_CURRENT_KEYS = (
    "frequency",
    "coils",
    "solidConductors",
    "magneticBoundaries",
    "airPadding",
    "bodyMaterials",
    "meshOrder",
    "linearSolver",
    "tolerance",
    "maxIterations",
)


def eddy_current_solution(model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
    if not config.get("coils") and not config.get("solidConductors"):
        raise InvalidInput(
            "Induction heating needs the eddy-current setup: a coil (coils) or a solid conductor fed a current "
            "(solidConductors), a frequency, and a conductivity for the bodies to heat."
        )
    eddy_config = {k: config[k] for k in EDDY_CURRENT_KEYS if k in config}
    eddy_config["analysisType"] = "eddy-current"
    solution = analysis_for(eddy_config).solve(model, eddy_config, progress)
    if solution.field("loss_density") is None:
        raise InvalidInput("Induction heating: the eddy-current run produced no losses to heat with.")
    return solution


def induction_source(mesh: ng.Mesh, model: TetModel, solution: Solution) -> ng.CoefficientFunction:
    """The eddy-current run's loss density per tetrahedron as a piecewise-constant heat source on `mesh`.
    An air region the EM run added around the model (airPadding) comes after the model's tetrahedra."""
    field = solution.field("loss_density")
    assert field is not None
    space = ng.L2(mesh, order=0)
    gf = ng.GridFunction(space)
    gf.vec.FV().NumPy()[:] = field.values[: model.nt][element_order(model)]
    return gf
