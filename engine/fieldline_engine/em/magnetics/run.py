"""A magnetostatic solve on a ready NGSolve mesh (bodies body0, body1, …, boundary names from setup.py):
coil paths, the nonlinear solve and the quantities. The job (job.py) and the validation tests call this."""

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.em.magnetics.coil_paths import CoilPath
from fieldline_engine.em.magnetics.quantities import (
    energy_check,
    flux_linkages,
    force_and_torque,
    inductance_matrix,
)
from fieldline_engine.em.magnetics.setup import CoilSpec, flux_tangent_region
from fieldline_engine.em.magnetics.solver import BodyMagnetics, MagnetostaticFields, solve_magnetostatic

# ½IᵀLI and the field energy W must agree this well on a linear model; more means a broken source.
ENERGY_CHECK_LIMIT = 1e-6


@dataclass
class MagnetostaticRun:
    fields: MagnetostaticFields
    paths: list[CoilPath]
    quantities: dict[str, Any]
    solver_info: dict[str, Any]
    warnings: list[str] = field(default_factory=list)


def run_magnetostatic(
    mesh: ng.Mesh,
    bodies: list[BodyMagnetics],
    coils: list[CoilSpec],
    order: int,
    options: SolverOptions,
    forces: list[int] = (),  # type: ignore[assignment]
    body_names: list[str] | None = None,
    torque_origin: np.ndarray | None = None,
    torque_axis: np.ndarray | None = None,
    progress: Callable[[float, str], None] = lambda _f, _m: None,
) -> MagnetostaticRun:
    started = time.perf_counter()
    progress(0.0, "Coil current paths")
    paths = [coil.path(mesh, order) for coil in coils]
    drives = [c.drive for c in coils]
    fields = solve_magnetostatic(
        mesh,
        bodies,
        [(p.turn_density, c.turns * c.current) for p, c in zip(paths, coils, strict=True)],
        order,
        flux_tangent_region(mesh),
        options,
        lambda f, m: progress(0.05 + 0.75 * f, m),
    )
    quantities: dict[str, Any] = {"energy_J": fields.energy}
    info: dict[str, Any] = {
        "matrix_size": fields.ndof,
        "element_order": order,
        "analysis": "magnetostatic",
        "nonlinear": fields.nonlinear,
        "newton_iterations": fields.newton_steps,
        "newton_residual": fields.newton_residual,
        "newton_factorizations": fields.preparations,
        **fields.report.as_info(),
    }
    warnings: list[str] = []
    if coils:
        progress(0.85, "Flux linkages and inductances")
        psi = flux_linkages(fields, drives)
        magnets = any(b.remanence is not None for b in bodies)
        matrix = inductance_matrix(fields, drives, magnets, psi)
        names = [c.name for c in coils]
        quantities["flux_linkage_Wb"] = dict(zip(names, psi, strict=True))
        quantities["inductance_matrix_H"] = {
            a: {b: float(matrix[i, j]) for j, b in enumerate(names)} for i, a in enumerate(names)
        }
        if len(coils) == 1:
            quantities["inductance_H"] = float(matrix[0, 0])
        quantities["coil_section_m2"] = {c.name: p.section_m2 for c, p in zip(coils, paths, strict=True)}
        check = None if (fields.nonlinear or magnets) else energy_check(matrix, drives, fields.energy)
        if check is not None:
            info["inductance_energy_check"] = check
            if check > ENERGY_CHECK_LIMIT:
                warnings.append(
                    f"The inductance matrix and the field energy disagree by {check:.1e} (½IᵀLI vs W)."
                )
        if fields.nonlinear:
            info["inductance"] = "incremental (the tangent about the solution: dΨ/dI)"
    if forces:
        progress(0.95, "Forces and torques")
        names = body_names or [f"body{i}" for i in range(len(bodies))]
        force_map, torque_map = {}, {}
        origin = np.zeros(3) if torque_origin is None else torque_origin
        for body in forces:
            f, t = force_and_torque(fields, body, origin, torque_axis)
            force_map[names[body]] = f
            if t is not None:
                torque_map[names[body]] = t
        quantities["force_N"] = force_map
        if torque_axis is not None:
            quantities["torque_Nm"] = torque_map
    info["solve_seconds_total"] = round(time.perf_counter() - started, 3)
    return MagnetostaticRun(fields, paths, quantities, info, warnings)
