"""The L-shaped prism with the exact singular potential u = r^{2/3} sin(2θ/3) as Dirichlet data on its
whole boundary: a test analysis (registered only by the tests) that runs the EM family's own
electrostatic solver and estimator, and measures the exact energy-norm error of each pass."""

import math
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.core.solution import Solution
from fieldline_engine.em.adaptive_estimates import static_estimate
from fieldline_engine.em.em_static_job import solve_fields
from fieldline_engine.em.field_solution import FieldSolution
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.testing.occ_models import dirichlet, material

ANALYSIS_TYPE = "test-lshape-exact"


def _polar():
    r = ng.sqrt(ng.x * ng.x + ng.y * ng.y)
    angle = ng.atan2(ng.y, ng.x)
    theta = ng.IfPos(-angle, angle + 2 * math.pi, angle)  # [0, 2π): the material spans 0 … 3π/2
    return r, theta


def exact_potential() -> ng.CoefficientFunction:
    r, theta = _polar()
    return r ** (2 / 3) * ng.sin(2 * theta / 3)


def exact_gradient() -> ng.CoefficientFunction:
    """∇u = (2/3) r^{-1/3} (−sin(θ/3), cos(θ/3), 0)."""
    r, theta = _polar()
    scale = (2 / 3) * (r + 1e-300) ** (-1 / 3)
    return ng.CF((-scale * ng.sin(theta / 3), scale * ng.cos(theta / 3), 0))


class ExactLShape:
    analysis_type = ANALYSIS_TYPE

    def check(self, config: dict[str, Any]) -> list[str]:
        return []

    def supports_adaptive(self, config: dict[str, Any]) -> bool:
        return True

    def solve(self, model: TetModel, config: dict[str, Any], progress: Any) -> Solution:
        mesh, materials, sol = solve_potential(model)
        out = Solution(quantities={"energy_error": energy_error(mesh, sol), "unknowns": sol.ndof})
        out.error_estimate = static_estimate(model, mesh, sol, materials, 1)
        return out


def solve_potential(model: TetModel) -> tuple[ng.Mesh, list, FieldSolution]:
    """The electrostatic solve alone (what uniform refinement needs; bench/adaptive times the parts apart)."""
    bnd = dirichlet((0.0, "exact", exact_potential()))
    bnd.face_labels = np.full(len(model.faces), "dirichlet_0", dtype=object)
    mesh = build_ngsolve_mesh(model, bnd.face_labels)
    materials = [material()]
    sol = solve_fields(
        mesh, materials, bnd, 1, 0.0, SolverOptions("direct"), magnetic=False, terminal_matrix=False
    )
    return mesh, materials, sol


def energy_error(mesh: ng.Mesh, sol: FieldSolution) -> float:
    """The exact energy-norm error ‖∇(φ_h − u)‖ (a measurement: no method needs it)."""
    diff = -sol.e_field - exact_gradient()  # ∇φ_h − ∇u
    return math.sqrt(ng.Integrate(ng.InnerProduct(diff, diff), mesh, order=6))


def fitted_rate(points: list[tuple[int, float]]) -> float:
    """−slope of log(error) against log(unknowns), least squares."""
    n = np.log([p[0] for p in points])
    e = np.log([p[1] for p in points])
    return float(-np.polyfit(n, e, 1)[0])
