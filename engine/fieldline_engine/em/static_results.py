"""Results of a static or quasi-static solve in the spec 001 §3 shape.

Real fields: `efields`/`hfields` are the vectors at the vertices, `e_magnitudes`/`h_magnitudes` their
lengths. Complex (phasor, e^{+jωt}) fields: `efields`/`hfields` hold the real part (the field at phase
0), `efields_imag`/`hfields_imag` the imaginary part, the magnitudes are the peak amplitude
√(Σ|F_i|²), and `e_phase_deg`/`h_phase_deg` give the phase of each vertex's largest component.
`animation` holds phase frames when `animate` is on.
"""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine import protocol
from fieldline_engine.core.solution import Solution
from fieldline_engine.em.field_catalogue import ANIMATION_KEY, em_field, em_solution
from fieldline_engine.em.field_solution import FieldSolution
from fieldline_engine.em.fullwave.fields_output import phase_frames
from fieldline_engine.mesh.ngsolve_mesh import per_tetrahedron
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.post.grid_fields import grid_section
from fieldline_engine.post.vertex_fields import scalar_at_vertices, vector_at_vertices

SIDE_FILES_KEY = "_side_files"  # popped by the results writer: {file name: bytes}


def joule_heat_density(model: TetModel, mesh: ng.Mesh, sol: FieldSolution) -> np.ndarray:
    """σ|E|² = J·E averaged over each tetrahedron (W/m³): the element's dissipated power over its volume,
    so the cell field sums to the total Joule power exactly."""
    power = ng.Integrate(ng.InnerProduct(sol.current_density, sol.e_field), mesh, element_wise=True)
    volume = ng.Integrate(ng.CF(1.0), mesh, element_wise=True)
    return per_tetrahedron(model, power.NumPy() / volume.NumPy())


def static_results(
    model: TetModel,
    mesh: ng.Mesh,
    sol: FieldSolution,
    config: dict[str, Any],
    order: int,
    curving: dict[str, Any],
) -> Solution:
    cplx = sol.complex_valued
    # E, J and H are polynomials of degree order−1 per element: vertex values average the elements'.
    degree = max(1, order - 1)
    e_v = vector_at_vertices(mesh, sol.e_field, cplx, degree)
    h_v = (
        vector_at_vertices(mesh, sol.h_field, cplx, degree)
        if sol.h_field is not None
        else np.zeros((model.nv, 3))
    )
    j_v = (
        vector_at_vertices(mesh, sol.current_density, cplx, degree)
        if sol.current_density is not None
        else None
    )
    phi_v = scalar_at_vertices(sol.potential)

    main = sol.reports[0][1]
    solver_info: dict[str, Any] = {
        "elements": model.nt,
        "matrix_size": sol.ndof,
        "non_zeros": sol.non_zeros,
        "frequency": sol.frequency,
        "analysis": sol.regime,
        "element_order": order,
        "curved_geometry": curving,
        **main.as_info(),
        "systems": [{"name": name, **report.as_info()} for name, report in sol.reports],
    }
    if sol.magnetic_ndof:
        solver_info["magnetic_dofs"] = sol.magnetic_ndof
    # A CG stopped by maxIterations: the results panel shows solver_info.warnings (protocol logs stay on
    # the worker).
    unconverged = [
        f"The {name} solve stopped after {max(report.iterations)} CG iterations (maxIterations) before "
        f"reaching the tolerance; results may be inaccurate."
        for name, report in sol.reports
        if report.iterations and not report.converged
    ]
    if sol.notes or unconverged:
        solver_info["warnings"] = [*sol.notes, *unconverged]

    # The catalogue's order is the viewer's: the spec's first field mode (Electric Field) leads.
    fields = [em_field("electric_field", e_v), em_field("magnetic_field", h_v), em_field("potential", phi_v)]
    if j_v is not None:
        fields.append(em_field("current_density", j_v))
        if not cplx:
            fields.append(em_field("joule_heat_density", joule_heat_density(model, mesh, sol)))
    results: dict[str, Any] = {
        "solver_info": solver_info,
        "quantities": sol.quantities,
        "units": {"length": "model", "E": "V/m", "H": "A/m", "J": "A/m^2", "potential": "V"},
    }
    if cplx and config.get("animate"):
        frames = int(config.get("animationFrames", 50))
        protocol.progress(88, f"Phase animation ({frames} frames)")
        results[ANIMATION_KEY] = phase_frames(e_v, h_v, frames)

    if config.get("gridFieldsEnabled"):
        protocol.progress(90, "Sampling grid fields")
        sampled = {"potential": sol.potential, "e": sol.e_field}
        if sol.h_field is not None:
            sampled["h"] = sol.h_field
        if sol.current_density is not None:
            sampled["j"] = sol.current_density
        grid, files = grid_section(mesh, model.vertices, model.unit_scale, config, sampled)
        results["grid"] = grid
        if files:
            results[SIDE_FILES_KEY] = files
    return em_solution(fields, results)
