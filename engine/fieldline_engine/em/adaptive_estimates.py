"""The EM family's error estimates for adaptive refinement (core/adaptive/): flux recovery of E for the
static and quasi-static regimes, the curl–curl residual with HFSS's max |ΔS| rule for full-wave."""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.adaptive import p1_recovery
from fieldline_engine.core.adaptive.estimate import (
    ErrorEstimate,
    Tracked,
    curl_residual_estimate,
    element_wise,
    modes_estimate,
    recovery_estimate,
    recovery_indicators,
    relative_error,
)
from fieldline_engine.core.adaptive.settings import adaptive_settings
from fieldline_engine.em.constants import EPS0, MU0
from fieldline_engine.em.field_solution import FieldSolution
from fieldline_engine.em.materials import BodyMaterial
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel

# The figure a static run's passes table follows by default (the first the regime produced).
STATIC_QUANTITIES = ("capacitance_F", "resistance_ohm", "stored_energy_J", "dissipated_power_W")
FULLWAVE_TOLERANCE = 0.02  # HFSS's default max |ΔS|


def static_estimate(
    model: TetModel, mesh: ng.Mesh, sol: FieldSolution, materials: list[BodyMaterial], order: int
) -> ErrorEstimate:
    """Energy-norm error of E weighted by the regime's material: ε (electrostatics), σ (conduction: the
    insulators carry no current and add nothing), |σ + jωε| (quasi-statics)."""
    omega = 2 * np.pi * sol.frequency

    def weight_of(m: BodyMaterial) -> float:
        eps = float(np.mean(np.abs(m.permittivity)))
        sigma = float(np.mean(np.abs(m.conductivity)))
        if sol.regime == "electrostatics":
            return eps / EPS0
        if sol.regime == "steady conduction":
            return sigma
        return float(abs(sigma + 1j * omega * eps))

    weights = [weight_of(m) for m in materials]
    if p1_recovery.applies(mesh, sol.potential, order, sol.complex_valued, model.nv):
        # E = −∇φ of a first-order φ on straight elements: the same recovery in closed form (p1_recovery.py)
        values = np.asarray(sol.potential.vec.FV().NumPy(), dtype=np.float64)
        eta2, norm2 = p1_recovery.p1_recovery_indicators(model, values, np.asarray(weights)[model.regions])
        estimate = ErrorEstimate(eta2, sol.ndof, relative_error(float(eta2.sum()), norm2))
    else:
        weight = mesh.MaterialCF({f"body{i}": w for i, w in enumerate(weights)}, default=0.0)
        estimate = recovery_estimate(model, mesh, sol.e_field, weight, order, sol.ndof, sol.complex_valued)
    estimate.default_quantity = next((q for q in STATIC_QUANTITIES if q in sol.quantities), None)
    return estimate


def fullwave_pass_config(config: dict[str, Any], frequencies: list[float]) -> dict[str, Any] | None:
    """The passes solve one frequency (`adaptiveRefinement.frequency`, else the sweep's highest, where the
    mesh is coarsest in wavelengths), without animation or grid sampling; the sweep runs on the final mesh."""
    if config.get("useRadialPML"):
        raise InvalidInput(
            "Adaptive refinement does not yet work with the radial PML (its air shell is generated per run); "
            "use wave ports and walls, or a fixed mesh."
        )
    settings = adaptive_settings(config, FULLWAVE_TOLERANCE)
    f = settings.frequency if settings and settings.frequency else max(frequencies)
    if f <= 0:
        raise InvalidInput("Adaptive refinement: the adaptation frequency must be above 0 Hz.")
    return {
        **config,
        "frequency": f,
        "sParamFreqMin": f,
        "sParamFreqMax": f,
        "sParamNumPoints": 1,
        "sParamSweepType": "uniform",
        "animate": False,
        "gridFieldsEnabled": False,
    }


def fullwave_estimate(
    model: TetModel,
    mesh: ng.Mesh,
    excitations: list[ng.GridFunction],
    s_matrix: np.ndarray,
    inv_mu_r: ng.CoefficientFunction,
    k0_squared_eps: ng.CoefficientFunction,
    order: int,
    unknowns: int,
) -> ErrorEstimate:
    """Residual indicators summed over the port excitations (each 1 W incident, so ports weigh alike);
    the stopping rule follows S at the adaptation frequency."""
    total = np.zeros(model.nt)
    for e in excitations:
        total += curl_residual_estimate(model, mesh, e, inv_mu_r, k0_squared_eps, order, unknowns).indicators
    return ErrorEstimate(
        total,
        unknowns,
        None,
        tracked={"S": Tracked(np.asarray(s_matrix), "absolute", "S-parameters")},
        default_quantity="S",
        default_tolerance=FULLWAVE_TOLERANCE,
    )


def eigen_estimate(
    model: TetModel,
    mesh: ng.Mesh,
    modes: list[Any],
    inv_mu_r: ng.CoefficientFunction,
    eps_r: ng.CoefficientFunction,
    order: int,
    unknowns: int,
) -> ErrorEstimate:
    """Cavity eigenmodes: the curl–curl residual of each mode at its own k² (curl ν curl E − k² ε E), divided
    by the mode's energy ∫ ν |curl E|² and summed, marks the elements; the passes stop when the modes'
    frequencies settle. The residual's constant is unknown, so the estimated error the passes show is flux
    recovery's instead: ν curl E (the mode's H, tangentially continuous) recovered in each body, the worst
    mode's relative energy-norm error η / √(‖ν^½ curl E‖² + η²)."""
    per_mode = []
    worst = 0.0
    for mode in modes:
        e = mode.field
        estimate = curl_residual_estimate(model, mesh, e, inv_mu_r, mode.k_squared * eps_r, order, unknowns)
        energy = float(
            element_wise(mesh, inv_mu_r * ng.InnerProduct(ng.curl(e), ng.curl(e)), 2 * order).sum()
        )
        per_mode.append((estimate.indicators, abs(energy)))
        eta2, norm2 = recovery_indicators(
            model, mesh, ng.curl(e), inv_mu_r, order, complex_valued=e.space.is_complex, per_body=True
        )
        worst = max(worst, relative_error(float(eta2.sum()), norm2))
    out = modes_estimate(per_mode, unknowns, [m.frequency for m in modes], "frequencies_Hz", relative=False)
    out.relative_error = worst
    return out


def magnetostatic_estimate(
    model: TetModel,
    solved: TetModel,
    mesh: ng.Mesh,
    fields: Any,
    bodies: list[Any],
    order: int,
    air_region: int | None,
) -> tuple[ErrorEstimate, float]:
    """Flux recovery of B weighted by the reluctivity ν (a BH body's secant H·B/|B|²): the energy-norm error
    ∫ ν |B* − B_h|². `model` is the model the passes refine and `solved` the one the solve ran on; in an
    adaptive run they are the same, the device with the air the run added meshed once before the passes
    (em/magnetics/adaptive_air.py), so the air's elements are marked like any other. `air_region` is the added
    air's body (None without added air): the share of the error it holds is returned for the run to report.

    (Before, the air was meshed again around each pass's device and only the device was marked: around a bare
    magnet, whose field is all in that air, the air kept 94 % of the error; folding its error onto the device's
    outside vertices did worse still.)"""
    nu = mesh.MaterialCF(
        {
            f"body{i}": ng.CF(b.nu)
            if b.bh is None
            else ng.InnerProduct(fields.h, fields.b) / (ng.InnerProduct(fields.b, fields.b) + 1e-30)
            for i, b in enumerate(bodies)
        },
        default=ng.CF(1.0 / MU0),
    )
    eta2, norm2 = recovery_indicators(solved, mesh, fields.b, nu, order, per_body=True)
    eta2 = eta2 + source_oscillation(solved, mesh, fields.source, order)
    estimate = ErrorEstimate(eta2[: model.nt], fields.ndof, relative_error(float(eta2.sum()), norm2))
    estimate.default_quantity = "energy_J"
    return estimate, air_share(solved, eta2, air_region)


def eddy_estimate(
    model: TetModel,
    solved: TetModel,
    mesh: ng.Mesh,
    b_field: Any,
    nu: Any,
    quantities: dict,
    order: int,
    ndof: int,
    air_region: int | None,
    source: ng.CoefficientFunction | None = None,
) -> tuple[ErrorEstimate, float]:
    """Eddy currents: flux recovery of the complex B, real and imaginary parts each, weighted by ν and
    recovered body by body (B's tangential part jumps by μr at a core); in a conductor B falls off over the
    skin depth, and its recovery error is what draws refinement to the skin; the coils' `source` adds its
    data oscillation (source_oscillation). In an adaptive run the air a
    run adds around the device is part of `model` (meshed once before the passes) and marked like the rest;
    `air_region` (None without added air) gives its share of the error, returned second. The stopping rule
    may follow the loss, the energy, the inductance or each conductor's resistance and reactance (arrays
    over the conductors)."""
    eta2 = np.zeros(solved.nt)
    norm2 = 0.0
    for part in (b_field.real, b_field.imag):
        e, n = recovery_indicators(solved, mesh, part, nu, order, per_body=True)
        eta2 += e
        norm2 += n
    if source is not None:  # the coils' data oscillation, as in magnetostatics
        for part in (source.real, source.imag) if source.is_complex else (source,):
            eta2 += source_oscillation(solved, mesh, part, order)
    estimate = ErrorEstimate(eta2[: model.nt], ndof, relative_error(float(eta2.sum()), norm2))
    for name in ("resistance_ohm", "reactance_ohm"):
        table = quantities.get(name)
        if isinstance(table, dict) and table:
            estimate.tracked[name] = Tracked([float(v) for v in table.values()], "relative", name)
    estimate.default_quantity = "total_loss_W"
    return estimate, air_share(solved, eta2, air_region)


def source_oscillation(
    model: TetModel, mesh: ng.Mesh, source: ng.CoefficientFunction, order: int
) -> np.ndarray:
    """The coils' current density is constant on each tetrahedron (the lowest-order divergence-free field along
    the winding, em/magnetics/coil_paths.py): on a coarse winding the current runs on a polygon inside the
    circle, an error in the data that the recovery of B does not see, and the passes would leave the winding
    coarse where B is smooth. Its share of the energy-norm error is the residual estimator's data
    oscillation μ0 h_T² ‖J − J_h‖²_T, with J recovered body by body as B is (0 outside the windings)."""
    diff2, _ = recovery_indicators(model, mesh, source, ng.CF(1.0), order, per_body=True)
    p = model.vertices[model.tetrahedra]
    edges = p[:, [0, 0, 0, 1, 1, 2]] - p[:, [1, 2, 3, 2, 3, 3]]
    h = np.sqrt(np.max(np.einsum("tek,tek->te", edges, edges), axis=1))
    return MU0 * h**2 * diff2


def air_share(solved: TetModel, eta2: np.ndarray, air_region: int | None) -> float:
    """The added air's share of the estimated error η² (0 without added air)."""
    total = float(eta2.sum())
    if air_region is None or not total > 0:
        return 0.0
    return float(eta2[solved.regions == air_region].sum()) / total
