"""`analysisType: "em-eigen"`: cavity eigenmodes of the uploaded model.

Outer faces are PEC unless an impedance condition (Leontovich wall, e.g. a conductor given by σ) or a
Neumann condition (PMC symmetry plane) names them. `frequency` (Hz) is the target the modes are
sought around (0: just below the lowest mode of the bounding box); `eigenNumModes` modes are
returned, and the fields of mode `eigenFieldMode` (0-based, default 0) are written for the viewer,
scaled to a peak |E| of 1 V/m.
"""

import math
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine import protocol
from fieldline_engine.core.adaptive.settings import adaptive_requested
from fieldline_engine.core.solution import Solution
from fieldline_engine.em.boundary_conditions import resolve_boundaries
from fieldline_engine.em.constants import C0, ETA0
from fieldline_engine.em.field_catalogue import em_solution
from fieldline_engine.em.fullwave.eigen import cavity_eigen
from fieldline_engine.em.fullwave.fields_output import harmonic_fields
from fieldline_engine.em.fullwave.impedance import walls_from_config
from fieldline_engine.em.fullwave.job import fullwave_labels
from fieldline_engine.em.fullwave.media import media_from_bodies
from fieldline_engine.em.materials import body_materials
from fieldline_engine.em.static_results import SIDE_FILES_KEY
from fieldline_engine.errors import InvalidInput
from fieldline_engine.limits import address_space_limit_mb
from fieldline_engine.mesh.curving import curve_mesh
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.post.grid_fields import grid_section
from fieldline_engine.post.vertex_fields import vector_at_vertices

MAX_MODES = 50


def solve_eigen_job(model: TetModel, config: dict[str, Any]) -> Solution:
    n_modes = int(config.get("eigenNumModes", 6) or 6)
    if not 1 <= n_modes <= MAX_MODES:
        raise InvalidInput(f"eigenNumModes must be between 1 and {MAX_MODES}.")
    field_mode = int(config.get("eigenFieldMode", 0) or 0)
    order = int(config.get("meshOrder", 1))
    bnd = resolve_boundaries(model, config)
    labels, pec = fullwave_labels(model, bnd)
    protocol.progress(8, "Building mesh")
    mesh = build_ngsolve_mesh(model, labels)
    curving = curve_mesh(mesh, model, config, order)
    media = media_from_bodies(mesh, body_materials(model, config))
    walls = walls_from_config(bnd, config)
    target = float(config.get("frequency") or 0.0)
    protocol.progress(20, f"Eigen solve ({n_modes} modes)")
    solution = cavity_eigen(
        mesh,
        media,
        order,
        pec,
        n_modes=n_modes,
        shift_frequency=target or None,
        walls=walls,
        linear_solver=str(config.get("linearSolver") or "auto"),
        memory_limit_mb=address_space_limit_mb(),
        progress=protocol.ProgressSpan(20, 78),
    )
    modes = solution.modes
    if not modes:
        raise InvalidInput("No cavity modes were found near the target frequency; try another frequency.")
    protocol.progress(80, "Sampling mode fields")
    chosen = modes[min(max(field_mode, 0), len(modes) - 1)]
    gf = chosen.field
    omega = 2 * math.pi * chosen.frequency
    e_vertices = vector_at_vertices(mesh, gf, complex_valued=gf.space.is_complex, order=order)[: model.nv]
    scale = 1.0 / (float(np.max(np.linalg.norm(np.abs(e_vertices), axis=1))) or 1.0)
    e_cf = gf * scale
    h_cf = (1j * C0 * scale / (omega * ETA0)) * (media.inv_mu_r * ng.curl(gf))
    fields, field_extras = harmonic_fields(
        mesh,
        model.nv,
        e_cf,
        h_cf,
        animate=bool(config.get("animate")),
        frames=int(config.get("animationFrames", 50)),
        order=order,
    )
    results: dict[str, Any] = {
        "solver_info": {
            "elements": model.nt,
            "matrix_size": int(gf.space.ndof),
            "non_zeros": chosen.matrix_nze,
            "frequency": chosen.frequency,
            "analysis": "em-eigen",
            "element_order": order,
            "curved_geometry": curving,
            "linear_solver": solution.method,
            **solution.info,
        },
        **field_extras,
        "eigenmodes": [
            {
                "index": i,
                "frequency_hz": m.frequency,
                "q_factor": m.q_factor,
                "k_squared": [m.k_squared.real, m.k_squared.imag],
            }
            for i, m in enumerate(modes)
        ],
        "field_mode": modes.index(chosen),
        "units": {"length": "model", "E": "V/m (mode scaled to peak 1 V/m)", "H": "A/m", "frequency": "Hz"},
    }
    if config.get("gridFieldsEnabled"):
        protocol.progress(90, "Sampling grid fields")
        grid, files = grid_section(mesh, model.vertices, model.unit_scale, config, {"e": e_cf, "h": h_cf})
        results["grid"] = grid
        if files:
            results[SIDE_FILES_KEY] = files
    out = em_solution(fields, results, phases=False)
    if adaptive_requested(config):
        from fieldline_engine.em.adaptive_estimates import eigen_estimate

        out.error_estimate = eigen_estimate(
            model, mesh, modes, media.inv_mu_r, media.eps_r, order, int(gf.space.ndof)
        )
    return out
