"""The EM family's error estimates for adaptive refinement (core/adaptive/): flux recovery of E for the
static and quasi-static regimes, the curl–curl residual with HFSS's max |ΔS| rule for full-wave."""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.adaptive.estimate import (
    ErrorEstimate,
    Tracked,
    curl_residual_estimate,
    recovery_estimate,
)
from fieldline_engine.core.adaptive.settings import adaptive_settings
from fieldline_engine.em.constants import EPS0
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

    weight = mesh.MaterialCF({f"body{i}": weight_of(m) for i, m in enumerate(materials)}, default=0.0)
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
