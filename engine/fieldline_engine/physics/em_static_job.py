"""The `em` analysis at frequency 0: electrostatics on the uploaded tetrahedral model."""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine import protocol
from fieldline_engine.errors import EngineError
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.physics.boundary_conditions import resolve_boundaries
from fieldline_engine.physics.electrostatics import derived_quantities, solve_electrostatics
from fieldline_engine.physics.materials import body_materials, coefficient
from fieldline_engine.post.results import dense_scalar, dense_vectors, mesh_section
from fieldline_engine.post.vertex_fields import scalar_at_vertices, vector_at_vertices


def solve_em_static(model: TetModel, config: dict[str, Any]) -> dict[str, Any]:
    frequency = float(config.get("frequency", 0.0))
    if frequency != 0.0:
        raise EngineError(
            "unsupported_analysis", "Frequency-domain analysis is not available yet; set frequency to 0."
        )
    bnd = resolve_boundaries(model, config)
    protocol.progress(8, "Building mesh")
    mesh = build_ngsolve_mesh(model, bnd.face_labels)
    order = int(config.get("meshOrder", 1))
    if config.get("useCurvedGeometry") or config.get("useCurvedMesh"):
        mesh.Curve(order)
    materials = body_materials(model, config)
    eps = coefficient(mesh, [m.permittivity for m in materials])
    sol = solve_electrostatics(
        mesh,
        eps,
        bnd,
        order=order,
        tolerance=float(config.get("tolerance", 1e-6)),
        max_iterations=int(config.get("maxIterations", 1000)),
    )
    protocol.progress(80, "Sampling fields at vertices")
    e_vertices = vector_at_vertices(mesh, -ng.grad(sol.potential))
    e_mag = np.linalg.norm(e_vertices, axis=1)
    zeros = np.zeros(model.nv)
    return {
        "solver_info": {
            "elements": model.nt,
            "matrix_size": sol.fes.ndof,
            "non_zeros": sol.stiffness.mat.nze,
            "frequency": 0.0,
            "analysis": "electrostatics",
            "element_order": order,
            "linear_solver": sol.report.method,
            "iterations": sol.report.iterations,
        },
        **mesh_section(model),
        "field_magnitudes": {"e_magnitudes": dense_scalar(e_mag), "h_magnitudes": dense_scalar(zeros)},
        "efields": dense_vectors(e_vertices),
        "hfields": dense_vectors(np.zeros((model.nv, 3))),
        "potential": dense_scalar(scalar_at_vertices(sol.potential)),
        "quantities": derived_quantities(sol, bnd),
        "units": {"length": "model", "E": "V/m", "H": "A/m", "potential": "V"},
    }
