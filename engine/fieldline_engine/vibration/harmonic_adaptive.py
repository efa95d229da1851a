"""Adaptive refinement of a harmonic response (docs/adaptive.md): the passes solve one frequency, the
adaptation frequency, and estimate the error of the complex displacement there by flux recovery of its
strain (real and imaginary parts, each weighted by Young's modulus); the sweep then runs once on the final
mesh, as HFSS adapts at one frequency and sweeps on the final mesh."""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.adaptive.estimate import ErrorEstimate, recovery_indicators, relative_error
from fieldline_engine.core.adaptive.settings import adaptive_settings
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel

DEFAULT_QUANTITY = "max_displacement_amplitude_m"


def adaptation_frequency(config: dict[str, Any], band_top: float) -> float:
    """`adaptiveRefinement.frequency`, else `harmonicFieldFrequency`, else the band's highest frequency: the
    shortest structural wavelength of the sweep, where a mesh is coarsest relative to the response."""
    settings = adaptive_settings(config, 0.01)
    chosen = settings.frequency if settings and settings.frequency else None
    f = float(chosen or config.get("harmonicFieldFrequency") or band_top)
    if not f > 0:
        raise InvalidInput("Adaptive refinement: the adaptation frequency must be above 0 Hz.")
    return f


def max_amplitude(model: TetModel, shape: np.ndarray) -> dict[str, Any]:
    """The largest displacement amplitude |u| over the vertices at the field frequency (m) and where it is
    (model units): the figure the passes follow by default."""
    amplitude = np.linalg.norm(np.abs(shape), axis=1)
    i = int(np.argmax(amplitude))
    return {
        "max_displacement_amplitude_m": float(amplitude[i]),
        "max_displacement_amplitude_location": (model.vertices[i] / model.unit_scale).tolist(),
    }


def harmonic_estimate(
    model: TetModel, mesh: ng.Mesh, materials: Any, modal: Any, dofs: np.ndarray, order: int
) -> ErrorEstimate:
    """ZZ recovery of the response's strain, real and imaginary parts each: η_T² = η_re² + η_im², the
    energy-norm error of the complex displacement at the adaptation frequency."""
    weight = materials.coefficient(mesh, "youngsModulus")
    part = ng.GridFunction(modal.elasticity.fes)
    eta2 = np.zeros(model.nt)
    norm2 = 0.0
    for values in (np.real(dofs), np.imag(dofs)):
        part.vec.FV().NumPy()[:] = values
        e, n = recovery_indicators(model, mesh, modal.elasticity.strain(part), weight, order)
        eta2 += e
        norm2 += n
    estimate = ErrorEstimate(eta2, int(modal.elasticity.fes.ndof), relative_error(float(eta2.sum()), norm2))
    estimate.default_quantity = DEFAULT_QUANTITY
    return estimate
