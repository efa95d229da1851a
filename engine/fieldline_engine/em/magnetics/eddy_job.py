"""The `eddy-current` analysis on an uploaded model: config → eddy-current solve → named fields and quantities.

Sources: stranded coils (`coils`, the magnetostatic coil paths: N·I spread uniformly over the winding, no
eddy currents inside it) and solid conductors fed a total current (`solidConductors`). Conductors are the
other bodies with a conductivity. Phasors are peak values with e^{+jωt} (DESIGN.md §3): a field's `data`
is its value at ωt = 0, `imag` the imaginary part (the value at ωt = 90° is −imag). Time averages use
the peak: loss density |J|²/2σ, energy ¼ Re ∫ H·B*.

A coil's impedance Z = V/I at the frequency: V = jωΨ + R_cu I, Ψ = N ∫ A·s dV its flux linkage (s the
turn density), R_cu = N² ∫ |s|²/σ dV the winding's copper resistance at a fill factor of 1 (0 without a
conductivity). Re Z then holds the copper and the eddy losses the coil sees (with all sources on), Im Z
its reactance; per solid conductor Z = U/I from its source voltage.
"""

import math
from dataclasses import dataclass
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.adaptive.settings import adaptive_requested
from fieldline_engine.core.fields import Field
from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.core.materials import material_table
from fieldline_engine.core.numbers import finite_number
from fieldline_engine.core.probes import probe_points, probes_inside
from fieldline_engine.core.regions import FaceLabeller
from fieldline_engine.core.solution import Solution
from fieldline_engine.em.constants import MU0
from fieldline_engine.em.magnetics.adaptive_air import carried_air, model_with_air
from fieldline_engine.em.magnetics.air_region import add_air
from fieldline_engine.em.magnetics.eddy_current import EddySolution, solve_eddy_current
from fieldline_engine.em.magnetics.job import air_padding, needs_air
from fieldline_engine.em.magnetics.setup import (
    CoilSpec,
    body_magnetics,
    coil_specs,
    flux_tangent_region,
    label_boundaries,
)
from fieldline_engine.em.magnetics.solid_conductors import (
    massive_conductors,
    read_solid_conductors,
    solid_conductor_air,
)
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.curving import curve_mesh
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh, per_tetrahedron
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.post.vertex_fields import vector_at_vertices
from fieldline_engine.protocol import ProgressSpan

MATERIAL_DEFAULTS = {"relativePermeability": 1.0, "conductivity": 0.0}
FIELDS = {  # name → label, unit, kind (contracts/src/analysis/magnetics.ts MAGNETICS_FIELDS)
    "magnetic_flux_density": ("Magnetic flux density", "T", "vector"),
    "magnetic_field": ("Magnetic field", "A/m", "vector"),
    "current_density": ("Current density", "A/m^2", "vector"),
    # per tetrahedron: the time-averaged ohmic loss |J|²/2σ, what induction heating reads
    "loss_density": ("Loss density", "W/m^3", "scalar"),
}


def eddy_frequency(config: dict[str, Any]) -> float:
    frequency = float(config.get("frequency") or 0.0)
    if not math.isfinite(frequency) or frequency <= 0:
        raise InvalidInput(
            "An eddy-current analysis needs a frequency above 0 Hz (the coils' and conductors' current)."
        )
    return frequency


def eddy_order(config: dict[str, Any]) -> int:
    order = int(config.get("meshOrder", 2))
    if order not in (1, 2, 3):
        raise InvalidInput("Element order must be 1, 2 or 3.")
    return order


@dataclass
class DrivenCoil:
    spec: CoilSpec
    current: complex  # peak phasor per turn, A
    turn_density: ng.CoefficientFunction  # J per ampere-turn (1/m²)
    copper_sigma: float  # the winding's conductivity, 0 when none is given


def solve_eddy_job(model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
    frequency = eddy_frequency(config)
    omega = 2 * math.pi * frequency
    order = eddy_order(config)
    table = material_table(model, config, MATERIAL_DEFAULTS)
    table.require_positive("relativePermeability")
    warnings = _linear_materials(model, config)
    labeller = FaceLabeller(model)
    specs = coil_specs(model, config, labeller)
    label_boundaries(config, labeller)
    solids = read_solid_conductors(model, config)
    if not solids and not specs:
        raise InvalidInput(
            "An eddy-current analysis needs a source: a coil (coils) or a solid conductor fed a current "
            "(solidConductors)."
        )
    sigma = {b: table.value(b, "conductivity") for b in range(len(model.region_names))}
    coil_bodies = {s.body for s in specs}
    for spec in solids:
        if spec.body in coil_bodies:
            raise InvalidInput(f"Solid conductor '{spec.name}': its body is a coil's winding.")
        if not sigma[spec.body] > 0:
            raise InvalidInput(
                f"Solid conductor '{spec.name}' has no conductivity: give its body one above 0 (bodyMaterials)."
            )
    # Stranded windings carry no eddy currents whatever their material's conductivity.
    conductivity = {b: s for b, s in sigma.items() if s > 0 and b not in coil_bodies}

    solved, labels = model, labeller.labels
    air_info = carried_air(model, config)  # an adaptive pass: the air is part of the refined model
    if air_info is None and eddy_air_needed(model, config, specs, solids):
        progress(0.02, "Meshing the air around the model")
        air = add_air(model, labels, air_padding(config))
        solved, labels, air_info = air.model, air.labels, air.describe()
    progress(0.03, "Building mesh")
    mesh = build_ngsolve_mesh(solved, labels)
    curving = curve_mesh(mesh, solved, config, order)
    mu_r = table.column("relativePermeability") + [1.0] * (len(solved.region_names) - len(model.region_names))
    nu = mesh.MaterialCF({f"body{b}": 1.0 / (MU0 * m) for b, m in enumerate(mu_r)}, default=1.0 / MU0)
    progress(0.04, "Coil current paths")
    coils = [
        DrivenCoil(spec, _coil_phasor(config, k, spec), spec.path(mesh, order).turn_density, sigma[spec.body])
        for k, spec in enumerate(specs)
    ]
    source = None
    for c in coils:
        term = (c.spec.turns * c.current) * c.turn_density
        source = term if source is None else source + term
    progress(0.06, "Solid conductors: unit-voltage fields")
    conductors = massive_conductors(mesh, model, solids)
    sol = solve_eddy_current(
        mesh,
        nu,
        conductivity,
        source,
        conductors,
        omega,
        order,
        SolverOptions.from_config(config),
        progress.sub(0.08, 0.85),
        flux_tangent=flux_tangent_region(mesh),
    )
    progress(0.88, "Sampling fields")
    solution = _results(model, solved, mesh, sol, coils, source, conductivity, solids, frequency, order)
    solution.warnings.extend(warnings)
    solution.solver_info["curved_geometry"] = curving
    if air_info is not None:
        solution.solver_info["air_region"] = air_info
    probes, outside = probes_inside(mesh, model, probe_points(model, config))
    solution.warnings.extend(outside)
    if probes:
        solution.quantities["probes"] = [
            _probe(model, mesh, sol, name, point) for name, point in probes.items()
        ]
    if adaptive_requested(config):
        from fieldline_engine.em.adaptive_estimates import eddy_estimate

        air_region = None if air_info is None else len(model.region_names) - (solved is model)
        solution.error_estimate, share = eddy_estimate(
            model, solved, mesh, sol.b_field, nu, solution.quantities, order, sol.ndof, air_region, source
        )
        if air_info is not None:
            solution.solver_info["air_region"]["estimated_error_share"] = share
    return solution


def _probe(model: TetModel, mesh: ng.Mesh, sol: EddySolution, name: str, point: tuple) -> dict[str, Any]:
    """B at a point (the phasor's real and imaginary parts, T): what a search coil or Hall probe reads."""
    b = np.asarray(sol.b_field(mesh(*point)), dtype=complex).reshape(3)
    return {
        "name": name,
        "point": [c / model.unit_scale for c in point],
        "magnetic_flux_density_T": b.real.tolist(),
        "magnetic_flux_density_imag_T": b.imag.tolist(),
    }


def eddy_air_for_adaptive_passes(
    model: TetModel, config: dict[str, Any]
) -> tuple[TetModel, dict[str, Any]] | None:
    """The device with its air, meshed once before an adaptive run's passes (em/magnetics/adaptive_air.py)."""
    labeller = FaceLabeller(model)
    specs = coil_specs(model, config, labeller)
    if not eddy_air_needed(model, config, specs, read_solid_conductors(model, config)):
        return None
    return model_with_air(model, config, air_padding(config))


def eddy_air_needed(model: TetModel, config: dict[str, Any], specs: list[CoilSpec], solids: list) -> bool:
    """Air around a bare device, as in magnetostatics; with solid conductors only when asked and all of them
    are closed rings (solid_conductor_air); never with symmetry planes (the model then holds its own air)."""
    padding = config.get("airPadding")
    if config.get("magneticBoundaries"):
        if padding is not None and float(padding) > 0:
            raise InvalidInput(
                "Air is added only around a whole device: a model with symmetry planes (magneticBoundaries) "
                "must hold its own air. Set airPadding to 0."
            )
        return False
    with_solids = solid_conductor_air(model, config, solids)
    if with_solids is not None:
        return with_solids
    return needs_air(model, config, body_magnetics(model, config), {s.body for s in specs})


def _coil_phasor(config: dict[str, Any], k: int, spec: CoilSpec) -> complex:
    phase = finite_number((config["coils"][k] or {}).get("phase", 0.0) or 0.0, f"Coil '{spec.name}': phase")
    return complex(spec.current * np.exp(1j * math.radians(phase)))


def _linear_materials(model: TetModel, config: dict[str, Any]) -> list[str]:
    """An eddy-current run is linear: μr, not a B–H curve; a magnet's remanence is a static field."""
    warnings = []
    for entry in config.get("bodyMaterials") or []:
        name = str(entry.get("region"))
        if entry.get("remanence") is not None or entry.get("remanentFluxDensity"):
            raise InvalidInput(
                f"Body material '{name}': permanent magnets add a static field, which an eddy-current analysis "
                "(time-harmonic) does not solve. Leave the remanence out or run a magnetostatic analysis."
            )
        if entry.get("bhCurve") is not None:
            if entry.get("relativePermeability") is None:
                raise InvalidInput(
                    f"Body material '{name}': an eddy-current analysis is linear. Give a relativePermeability "
                    "(the B–H curve is for magnetostatic analyses)."
                )
            warnings.append(
                f"Body material '{name}': the eddy-current analysis uses its relativePermeability; its B–H curve "
                "was not used."
            )
    return warnings


def _results(
    model: TetModel,
    solved: TetModel,
    mesh: ng.Mesh,
    sol: EddySolution,
    coils: list[DrivenCoil],
    source: ng.CoefficientFunction | None,
    conductivity: dict[int, float],
    solids: list,
    frequency: float,
    order: int,
) -> Solution:
    omega = 2 * math.pi * frequency
    degree = max(1, order - 1)
    nv = model.nv  # fields on the model's vertices and tetrahedra: the added air comes after them
    j_total = sol.induced_current_density if source is None else sol.induced_current_density + source
    sampled = {
        "magnetic_flux_density": vector_at_vertices(mesh, sol.b_field, True, degree)[:nv],
        "magnetic_field": vector_at_vertices(mesh, sol.h_field, True, degree)[:nv],
        "current_density": vector_at_vertices(mesh, j_total, True, degree)[:nv],
    }
    loss_cell, loss_by_body = _losses(solved, mesh, sol, coils, conductivity)
    sampled["loss_density"] = loss_cell[: model.nt]

    quantities: dict[str, Any] = {
        "energy_J": sol.energy,
        "loss_W": {solved.region_names[b]: w for b, w in loss_by_body.items()},
        "total_loss_W": float(sum(loss_by_body.values())),
    }
    resistance: dict[str, float] = {}
    reactance: dict[str, float] = {}
    if coils:
        linkage = {}
        for c in coils:
            psi = complex(
                c.spec.turns * ng.Integrate(ng.InnerProduct(sol.vector_potential, c.turn_density), mesh)
            )
            r_cu = _copper_resistance(mesh, c)
            z = (1j * omega * psi) / c.current + r_cu if abs(c.current) > 0 else complex("nan")
            resistance[c.spec.name] = z.real
            reactance[c.spec.name] = z.imag
            linkage[c.spec.name] = abs(psi)
        quantities["flux_linkage_Wb"] = linkage
        if len(coils) == 1:
            quantities["inductance_H"] = reactance[coils[0].spec.name] / omega
    if solids:
        voltages, currents = {}, {}
        for spec, u, i in zip(solids, sol.voltages, sol.currents, strict=True):
            z = u / i
            resistance[spec.name], reactance[spec.name] = z.real, z.imag
            voltages[spec.name], currents[spec.name] = abs(u), abs(i)
        quantities["voltage_V"] = voltages
        quantities["current_A"] = currents
    if resistance:
        quantities["resistance_ohm"] = resistance
        quantities["reactance_ohm"] = reactance
    solver_info: dict[str, Any] = {
        "elements": solved.nt,
        "matrix_size": sol.ndof,
        "frequency": frequency,
        "analysis": "eddy-current",
        "element_order": order,
        "formulation": "A* (A–φ with φ absorbed in the conductors) on Nédélec elements",
        **sol.report.as_info(),
    }
    if sol.report.iterations and not sol.report.converged:
        solver_info["warnings"] = [
            "The eddy-current solve stopped at maxIterations before reaching the tolerance; results may be inaccurate."
        ]
    solution = Solution(quantities=quantities, solver_info=solver_info)
    for name, values in sampled.items():
        label, unit, kind = FIELDS[name]
        solution.add_field(
            Field(name, label, unit, kind, values, "cell" if name == "loss_density" else "vertex")
        )  # type: ignore[arg-type]
    return solution


def _copper_resistance(mesh: ng.Mesh, coil: DrivenCoil) -> float:
    if not coil.copper_sigma > 0:
        return 0.0
    s = coil.turn_density
    return float(coil.spec.turns**2 * ng.Integrate(ng.InnerProduct(s, s), mesh) / coil.copper_sigma)


def _losses(
    model: TetModel,
    mesh: ng.Mesh,
    sol: EddySolution,
    coils: list[DrivenCoil],
    conductivity: dict[int, float],
) -> tuple[np.ndarray, dict[int, float]]:
    """Time-averaged ohmic loss |J|²/2σ per tetrahedron (W/m³) and per body (W): induced and fed currents
    in the conductors, and the windings' copper loss where a coil has a conductivity."""
    inv_sigma = mesh.MaterialCF({f"body{b}": 1.0 / s for b, s in conductivity.items()}, default=0.0)
    j = sol.induced_current_density
    density = 0.5 * (ng.InnerProduct(j.real, j.real) + ng.InnerProduct(j.imag, j.imag)) * inv_sigma
    lossy = set(conductivity)
    for c in coils:
        if c.copper_sigma > 0:
            js = (c.spec.turns * abs(c.current)) * c.turn_density
            density = density + 0.5 * ng.InnerProduct(js, js) / c.copper_sigma
            lossy.add(c.spec.body)
    power = ng.Integrate(density, mesh, element_wise=True).NumPy()
    volume = ng.Integrate(ng.CF(1.0), mesh, element_wise=True).NumPy()
    power_tet = per_tetrahedron(model, power)
    by_body = {b: float(power_tet[model.regions == b].sum()) for b in sorted(lossy)}
    return per_tetrahedron(model, power / volume), by_body
