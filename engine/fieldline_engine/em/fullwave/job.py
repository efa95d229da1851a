"""The `em` analysis on the full-wave path: uploaded tetrahedra + config → results (spec 001 §3)."""

from typing import Any

import numpy as np

from fieldline_engine import protocol
from fieldline_engine.core.adaptive.settings import adaptive_requested
from fieldline_engine.core.linear_solve import solver_choice
from fieldline_engine.core.solution import Solution
from fieldline_engine.em.adaptive_estimates import fullwave_estimate
from fieldline_engine.em.boundary_conditions import ResolvedBoundaries, resolve_boundaries
from fieldline_engine.em.constants import EPS0, ETA0, MU0
from fieldline_engine.em.field_catalogue import em_solution
from fieldline_engine.em.fullwave.air_shell import FARFIELD_LABEL
from fieldline_engine.em.fullwave.exterior import metal_bodies, refuse_metal_field_region
from fieldline_engine.em.fullwave.fast_sweep import DEFAULT_TOLERANCE, run_frequency_sweep
from fieldline_engine.em.fullwave.fields_output import harmonic_fields
from fieldline_engine.em.fullwave.impedance import walls_from_config
from fieldline_engine.em.fullwave.iterative import iteration_settings
from fieldline_engine.em.fullwave.media import media_from_bodies
from fieldline_engine.em.fullwave.pml_job import VACUUM, setup_radial_pml
from fieldline_engine.em.fullwave.scattering import radiated_power
from fieldline_engine.em.fullwave.solver import FullwaveSolver
from fieldline_engine.em.fullwave.sweep import sweep_frequencies
from fieldline_engine.em.materials import BodyMaterial, body_materials
from fieldline_engine.em.ports.wave_port import WavePort, build_wave_port
from fieldline_engine.em.static_results import SIDE_FILES_KEY
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.curving import curve_mesh
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.post.grid_fields import grid_section

INTERFACE_LABEL = "interface"


def fullwave_labels(model: TetModel, bnd: ResolvedBoundaries) -> tuple[np.ndarray, str]:
    """Face labels for the NGSolve mesh, and the PEC regex: every outer face that is not a port,
    an impedance wall or a Neumann (PMC, the natural condition) face. Interior faces between bodies
    carry no condition."""
    labels = bnd.face_labels.copy()
    interior = (model.face_outer_region >= 0) & (labels == "default")
    labels[interior] = INTERFACE_LABEL
    outer = model.face_outer_region < 0
    pec = sorted(
        {str(x) for x in labels[outer] if not str(x).startswith(("port_", "impedance_", "neumann_"))}
    )
    return labels, "|".join(pec)


def pmc_labels(labels: np.ndarray) -> str | None:
    """The Neumann (PMC, symmetry-plane) face labels as "a|b", or None: a wave port whose edge runs
    along one gets its mode with the wall's condition (em/ports/eigenmode.py)."""
    return "|".join(str(x) for x in np.unique(labels) if str(x).startswith("neumann_")) or None


def port_filling(
    model: TetModel, labels: np.ndarray, label: str, bodies: list[BodyMaterial]
) -> tuple[complex, complex]:
    regions = np.unique(model.face_inner_region[labels == label])
    eps = {
        complex(np.mean(bodies[r].permittivity) / EPS0) * complex(1, -bodies[r].loss_tangent) for r in regions
    }
    mu = {float(np.mean(bodies[r].permeability) / MU0) for r in regions}
    if len(eps) > 1 or len(mu) > 1:
        raise InvalidInput(
            f"Wave port {label}: the port face touches bodies of different materials; "
            "an inhomogeneous port needs a single filling for its mode in this version."
        )
    return eps.pop(), complex(mu.pop())


def solve_fullwave_job(model: TetModel, config: dict[str, Any]) -> Solution | None:
    bnd = resolve_boundaries(model, config)
    labels, pec = fullwave_labels(model, bnd)
    order = int(config.get("meshOrder", 1))
    if order not in (1, 2, 3):
        raise InvalidInput("meshOrder (element order) must be 1, 2 or 3.")
    bodies = body_materials(model, config)
    metal = metal_bodies(bodies)
    # (the radial PML path wraps a bare metal model in air itself)
    refuse_metal_field_region(model, labels, bnd.ports, metal, len(bodies), bool(config.get("useRadialPML")))
    freqs, field_freq = sweep_frequencies(config)
    solve_model, pml_setup = model, None
    if config.get("useRadialPML"):
        protocol.progress(4, "Setting up the radial PML")
        pml_setup = setup_radial_pml(
            model, labels, pec, bodies, metal, config, max(freqs + [field_freq]), order
        )
        solve_model, labels, pec, bodies = pml_setup.model, pml_setup.labels, pml_setup.pec, pml_setup.bodies
    protocol.progress(6, "Building mesh")
    mesh = build_ngsolve_mesh(solve_model, labels)
    curving = curve_mesh(mesh, solve_model, config, order)
    # metal bodies are left out of the solve (their dofs fixed at 0): no need for their huge σ
    media = media_from_bodies(mesh, [VACUUM if i in metal else b for i, b in enumerate(bodies)])

    protocol.progress(10, "Computing port modes")
    ports: list[WavePort] = []
    pmc = pmc_labels(labels)
    for label, spec in bnd.ports:
        eps_r, mu_r = port_filling(solve_model, labels, label, bodies)
        ports.append(
            build_wave_port(
                mesh,
                label,
                str(spec.get("portID", len(ports) + 1)),
                str(spec.get("mode") or "TE10"),
                eps_r,
                mu_r,
                amplitude=1.0 if spec.get("amplitude") is None else float(spec["amplitude"]),
                phase_deg=float(spec.get("phase") or 0.0),
                order=order,
                pec=pec,
                pmc=pmc,
            )
        )
    walls = walls_from_config(bnd, config)
    pml = pml_setup.pml if pml_setup else None
    metal_regex = "|".join(f"body{i}" for i in metal) or None
    tolerance, max_iterations = iteration_settings(config)
    solver = FullwaveSolver(
        mesh,
        media,
        order,
        pec,
        ports,
        walls,
        pml,
        metal=metal_regex,
        linear_solver=solver_choice(config),
        tolerance=tolerance,
        max_iterations=max_iterations,
    )
    method = solver.method
    s_method = str(config.get("sParamMethod") or "wave_port")
    z_ref = float(config.get("portImpedance") or 50.0)
    protocol.progress(
        15, f"Solving {len(freqs)} frequency point(s), {solver.ndof} unknowns ({method} solver)"
    )
    swept = run_frequency_sweep(
        solver,
        freqs,
        field_freq,
        s_method,
        z_ref,
        sweep_type=str(config.get("sParamSweepType") or "uniform") if len(freqs) > 1 else "uniform",
        tolerance=float(config.get("sParamAdaptiveTolerance") or DEFAULT_TOLERANCE),
    )
    if swept is None:
        return None  # an MPI rank other than 0: rank 0 gathered its solves and writes the results
    sweep, field_solution, sweep_info = swept

    protocol.progress(85, "Sampling fields at vertices")
    e_gf = solver.combined_field(field_solution) if ports else None
    if e_gf is None:
        raise InvalidInput(
            "This full-wave model has no source: add a wave port (useWavePorts with at least one port)."
        )
    h_cf = solver.magnetic_field(e_gf, field_solution.frequency)
    fields, field_extras = harmonic_fields(
        mesh,
        model.nv,
        e_gf,
        h_cf,
        animate=bool(config.get("animate")),
        frames=int(config.get("animationFrames", 50)),
        order=order,
    )
    k0 = field_solution.k0
    results: dict[str, Any] = {
        "solver_info": {
            "elements": model.nt,
            "matrix_size": solver.ndof,
            "non_zeros": solver.nze,
            "frequency": field_solution.frequency,
            "analysis": "fullwave",
            "element_order": order,
            **solver.describe_linear_solver(),
            "phasor_convention": "e^{+jwt}",
            "frequency_points": len(freqs),
            "curved_geometry": curving,
            "frequency_sweep": sweep_info,
        },
        **field_extras,
        "ports": [{**p.describe(k0), **field_solution.port_props[i]} for i, p in enumerate(ports)],
        "units": {"length": "model", "E": "V/m", "H": "A/m", "frequency": "Hz"},
    }
    if "mpi" in sweep:  # the ranks that shared the sweep (distributed.py)
        results["solver_info"]["mpi"] = sweep.pop("mpi")
    if "warning" in sweep_info:  # a fallback to the uniform sweep, or an unconverged adaptive one
        results["solver_info"]["warnings"] = [sweep_info["warning"]]
    if walls:
        results["impedance_boundaries"] = [{"label": w.label, "description": w.description} for w in walls]
    if pml_setup is not None:
        shell_info = pml_setup.describe_shell()
        if pml_setup.shell is not None:
            # Power crossing the shell's far-field sphere: what the model radiates (the ports' incident
            # power minus what they take back and what the materials absorb).
            shell_info["radiated_power_w"] = radiated_power(
                solver, e_gf, field_solution.frequency, FARFIELD_LABEL, pml_setup.pml.centre
            )
        results["pml"] = {**pml_setup.pml.describe(), "air_shell": shell_info}
        results["solver_info"]["air_shell"] = shell_info
    if metal:
        results["solver_info"]["pec_bodies"] = [model.region_names[i] for i in metal]
    if ports:
        results["s_parameters"] = sweep
    if config.get("gridFieldsEnabled"):
        protocol.progress(90, "Sampling grid fields")
        sphere = (pml_setup.pml.centre, pml_setup.pml.r_inner) if pml_setup is not None else None
        grid, files = grid_section(
            mesh, model.vertices, model.unit_scale, config, {"e": e_gf, "h": h_cf}, sphere
        )
        results["grid"] = grid
        if files:
            results[SIDE_FILES_KEY] = files
    solution = em_solution(fields, results, phases=False)
    if adaptive_requested(config):
        if pml_setup is not None:
            raise InvalidInput("Adaptive refinement does not yet work with the radial PML.")
        k0 = field_solution.k0
        # the pass config solves the adaptation frequency alone (fullwave_pass_config)
        solution.solver_info["adaptation_frequency_Hz"] = float(config.get("frequency") or 0.0)
        solution.error_estimate = fullwave_estimate(
            model,
            mesh,
            field_solution.excitations,
            field_solution.s,
            media.inv_mu_r,
            k0 * k0 * media.eps_r - 1j * k0 * ETA0 * media.sigma,
            order,
            solver.ndof,
        )
    return solution
