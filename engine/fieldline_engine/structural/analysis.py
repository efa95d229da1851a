"""`analysisType: "structural"` — linear static structural analysis as a registered family."""

from typing import Any

from fieldline_engine.core.adaptive.estimate import recovery_estimate
from fieldline_engine.core.adaptive.settings import adaptive_requested
from fieldline_engine.core.elasticity.rigid_modes import require_no_rigid_motion
from fieldline_engine.core.elasticity.setup import (
    elastic_materials,
    elastic_setup,
    elasticity_order,
    require_supports_and_loads,
)
from fieldline_engine.core.elasticity.thermal import require_expansion
from fieldline_engine.core.given_fields import fields_from_info
from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.core.solution import Solution
from fieldline_engine.mesh.curving import curve_mesh
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.protocol import ProgressSpan
from fieldline_engine.structural.results import structural_solution
from fieldline_engine.structural.static import solve_static

# Config keys that mean nothing to a static structural run; named in solver_info.warnings when set.
NOT_USED = ("frequency", "useWavePorts", "useRadialPML", "calculateSParameters", "transient", "animate")


class StructuralAnalysis:
    analysis_type = "structural"

    def check(self, config: dict[str, Any]) -> list[str]:
        ignored = [k for k in NOT_USED if config.get(k)]
        if not ignored:
            return []
        return [f"A static structural run does not use {', '.join(ignored)}; they were left out."]

    def supports_adaptive(self, config: dict[str, Any]) -> bool:
        return True

    def solve(self, model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
        materials = elastic_materials(model, config)
        setup = elastic_setup(model, config)
        require_supports_and_loads(setup)
        require_no_rigid_motion(model, setup)
        if setup.thermal is not None:
            require_expansion(setup.thermal, materials.column("thermalExpansion"), materials.body_names)
        order = elasticity_order(config)
        progress(0.05, "Building mesh")
        mesh = build_ngsolve_mesh(model, setup.face_labels, setup.edge_regions(), setup.point_regions())
        curving = curve_mesh(mesh, model, config, order)
        sol = solve_static(
            mesh, setup, materials, order, SolverOptions.from_config(config), progress.sub(0.1, 0.85)
        )
        progress(0.9, "Stresses at the vertices")
        solution = structural_solution(model, mesh, setup, materials, sol, order)
        solution.solver_info["curved_geometry"] = curving
        if setup.thermal is not None:
            low, high = setup.thermal.range
            solution.quantities.update(
                reference_temperature_K=setup.thermal.reference,
                thermal_load_min_temperature_K=low,
                thermal_load_max_temperature_K=high,
            )
        sources = fields_from_info(config)
        if sources:
            solution.solver_info["fields_from"] = sources
        if adaptive_requested(config):
            # Flux recovery of the strain weighted by Young's modulus: the energy-norm error of the displacement.
            solution.error_estimate = recovery_estimate(
                model,
                mesh,
                sol.elasticity.strain(sol.displacement),
                materials.coefficient(mesh, "youngsModulus"),
                order,
                sol.elasticity.fes.ndof,
            )
            solution.error_estimate.default_quantity = "max_von_mises_Pa"
        if order == 1:
            solution.warnings.append(
                "First-order tetrahedra are too stiff in bending (shear locking): displacements and stresses "
                "of thin or bending parts come out low. Use element order 2 for accurate results."
            )
        return solution
