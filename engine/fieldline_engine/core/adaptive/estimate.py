"""What a family hands the adaptive loop with each pass's Solution (`Solution.error_estimate`):
per-tetrahedron error indicators, the estimated relative error, and the quantities its stopping rule
compares between passes. Families build it with the estimators here; core/adaptive/loop.py reads it.

Estimators:
- `recovery_estimate`: Zienkiewicz–Zhu. The discrete gradient (E, ∇T, strain) is discontinuous between
  elements; its projection into continuous piecewise polynomials is a better field, and the difference,
  weighted by the material (ε, k, E), is the energy-norm error per element. Relative error:
  η / √(‖u_h‖² + η²).
- `curl_residual_estimate`: the full-wave residual of curl μ⁻¹ curl E − k₀² ε E = 0, element interior
  (scaled by h²) and the tangential jump of μ⁻¹ curl E across faces (scaled by h).
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core import bits
from fieldline_engine.limits import parallel
from fieldline_engine.mesh.ngsolve_mesh import per_tetrahedron
from fieldline_engine.mesh.tet_model import TetModel

# How the loop compares a tracked value between passes.
#   "relative": |q_k − q_{k−1}| / |q_k|  (scalars, arrays: max over entries)
#   "absolute": max |q_k − q_{k−1}|      (S-parameters: HFSS's max |ΔS|)
ChangeRule = str


@dataclass
class Tracked:
    """A value the stopping rule follows between passes (a scalar, or an array such as S or frequencies)."""

    value: Any
    rule: ChangeRule = "relative"
    label: str = ""


@dataclass
class ErrorEstimate:
    indicators: np.ndarray  # (nt,) η_T² per model tetrahedron, ≥ 0
    unknowns: int  # DOFs of the pass's system
    relative_error: float | None = None  # estimated relative energy-norm error; None: stop on `tracked`
    # Values a stopping rule may follow; the family names its default in `default_quantity`.
    tracked: dict[str, Tracked] = field(default_factory=dict)
    default_quantity: str | None = None
    # Default tolerance of this family's rule when the user gives none (full-wave: |ΔS| 0.02).
    default_tolerance: float | None = None
    # Stop on the change of `default_quantity` even though an estimated error is given (eigenproblems: the
    # change of the requested frequencies; the estimated error is still shown per pass).
    stop_on_quantity: bool = False


def element_wise(mesh: ng.Mesh, cf: ng.CoefficientFunction, order: int) -> np.ndarray:
    with parallel(mesh.ne):
        return np.asarray(ng.Integrate(cf, mesh, order=order, element_wise=True).NumPy()).real.copy()


def recovery_estimate(
    model: TetModel,
    mesh: ng.Mesh,
    gradient: ng.CoefficientFunction,
    weight: ng.CoefficientFunction,
    order: int,
    unknowns: int,
    complex_valued: bool = False,
) -> ErrorEstimate:
    """ZZ estimate of the weighted gradient (`gradient` of any shape: vector or flattened tensor)."""
    eta2, norm2 = recovery_indicators(model, mesh, gradient, weight, order, complex_valued)
    return ErrorEstimate(eta2, unknowns, relative_error(float(eta2.sum()), norm2))


def recovery_indicators(
    model: TetModel,
    mesh: ng.Mesh,
    gradient: ng.CoefficientFunction,
    weight: ng.CoefficientFunction,
    order: int,
    complex_valued: bool = False,
    per_body: bool = False,
) -> tuple[np.ndarray, float]:
    """Per-tetrahedron ZZ indicators η_T² of the weighted gradient and the weighted norm² of the gradient.
    `per_body`: recover in each body separately, where the field itself jumps across material interfaces
    (B's tangential part at a permeable core: one continuous recovery would smear μr into a false error)."""
    dim = int(np.prod(gradient.shape)) if gradient.shape else 1
    flat = gradient.Reshape((dim,)) if len(gradient.shape) > 1 else gradient
    bodies = [m for m in dict.fromkeys(mesh.GetMaterials())] if per_body else [None]
    pieces = {}
    for body in bodies:
        region = mesh.Materials(body) if body is not None else None
        where = {"definedon": region} if region is not None else {}
        space = ng.H1(mesh, order=max(1, order), dim=dim, complex=complex_valued, **where)
        recovered = ng.GridFunction(space)
        with parallel(space.ndof):
            if region is None:
                recovered.Set(flat)
            else:
                recovered.Set(flat, definedon=region)
        pieces[body] = recovered
    recovered_cf = pieces[None] if not per_body else mesh.MaterialCF(pieces, default=flat)
    diff = recovered_cf - flat
    quad = 2 * max(1, order)
    eta2 = element_wise(mesh, weight * ng.InnerProduct(diff, diff), quad)
    energy = element_wise(mesh, weight * ng.InnerProduct(flat, flat), quad)
    return per_tetrahedron(model, np.maximum(eta2, 0.0)), float(energy.sum())


def modes_estimate(
    per_mode: list[tuple[np.ndarray, float]],
    unknowns: int,
    frequencies: list[float],
    label: str,
    relative: bool = True,
) -> ErrorEstimate:
    """Eigenproblems: the indicators of each requested mode, each divided by its mode's energy so every mode
    weighs alike whatever its normalisation, summed; the estimated error is the worst mode's (`relative`:
    recovery indicators, an energy-norm figure; a residual estimator's has an unknown constant and is left
    out). The stopping rule follows the requested frequencies (relative change, the worst mode's)."""
    indicators = np.zeros_like(per_mode[0][0]) if per_mode else np.zeros(0)
    worst = 0.0
    for eta2, norm2 in per_mode:
        total = float(eta2.sum())
        if norm2 + total > 0:
            indicators = indicators + eta2 / (norm2 + total)
            worst = max(worst, relative_error(total, norm2))
    return ErrorEstimate(
        indicators,
        unknowns,
        worst if relative else None,
        tracked={label: Tracked([float(f) for f in frequencies], "relative", label)},
        default_quantity=label,
        stop_on_quantity=True,
    )


def joint_estimate(parts: list[ErrorEstimate], unknowns: int, default_quantity: str | None) -> ErrorEstimate:
    """Coupled steps solved on one mesh (thermal → structural): each step's indicators divided by its own
    energy (η_T² · r² / η², r its relative error), summed, so each step draws refinement by its relative
    error; the estimated error is the worst step's."""
    indicators = np.zeros_like(parts[0].indicators)
    for part in parts:
        total = float(part.indicators.sum())
        if total > 0 and part.relative_error:
            indicators = indicators + part.indicators * part.relative_error**2 / total
    worst = max((p.relative_error for p in parts if p.relative_error is not None), default=None)
    return ErrorEstimate(indicators, unknowns, worst, default_quantity=default_quantity)


def relative_error(total: float, norm2: float) -> float:
    """η / √(‖u_h‖² + η²)."""
    return float(np.sqrt(total / (norm2 + total))) if norm2 + total > 0 else 0.0


def curl_residual_estimate(
    model: TetModel,
    mesh: ng.Mesh,
    e_field: ng.GridFunction,
    nu: ng.CoefficientFunction,
    k0_squared_eps: ng.CoefficientFunction,
    order: int,
    unknowns: int,
) -> ErrorEstimate:
    """Residual indicator of the time-harmonic curl–curl equation. Faces on the boundary add no jump
    (`Other(bnd=…)` takes the inside value there): ports, PEC and PML terminate the field by their own terms."""
    h = ng.specialcf.mesh_size
    n = ng.specialcf.normal(3)
    flux = nu * ng.curl(e_field)
    if order > 1:
        # curl of μ⁻¹ curl E through its element-wise projection into HCurl (ν is constant per body)
        projected = ng.GridFunction(ng.HCurl(mesh, order=order - 1, complex=True, discontinuous=True))
        with parallel(mesh.ne):
            projected.Set(flux)
        interior = ng.curl(projected) - k0_squared_eps * e_field
    else:
        interior = -k0_squared_eps * e_field  # curl curl of a first-order Nédélec field vanishes
    quad = 2 * order + 2
    eta2 = element_wise(mesh, h * h * ng.InnerProduct(interior, interior), quad)
    jump = ng.Cross(n, flux - flux.Other())
    with parallel(mesh.ne):
        facet = ng.Integrate(
            0.5
            * h
            * _interior_facets(mesh)
            * ng.InnerProduct(jump, jump)
            * ng.dx(element_boundary=True, bonus_intorder=order),
            mesh,
            element_wise=True,
        )
    eta2 = np.maximum(eta2 + np.asarray(facet.NumPy()).real, 0.0)
    return ErrorEstimate(per_tetrahedron(model, eta2), unknowns, None)


def _interior_facets(mesh: ng.Mesh) -> ng.GridFunction:
    """1 on faces between two elements, 0 on the boundary (where `Other()` has no neighbour)."""
    space = ng.FacetFESpace(mesh, order=0)
    indicator = ng.GridFunction(space)
    indicator.vec[:] = 1.0
    boundary = bits.indices(space.GetDofs(mesh.Boundaries(".*")))
    indicator.vec.FV().NumPy()[boundary] = 0.0
    return indicator


def dorfler_mark(indicators: np.ndarray, fraction: float) -> np.ndarray:
    """The fewest elements whose indicators hold `fraction` of the total estimated error (Dörfler's bulk
    criterion on η²), as a boolean mask. Ties at the threshold are all marked so equal elements stay equal."""
    eta = np.asarray(indicators, dtype=float)
    total = float(eta.sum())
    marked = np.zeros(len(eta), dtype=bool)
    if total <= 0 or len(eta) == 0:
        return marked
    order = np.argsort(eta)[::-1]
    cumulative = np.cumsum(eta[order])
    count = int(np.searchsorted(cumulative, fraction * total)) + 1
    threshold = eta[order[min(count, len(eta)) - 1]]
    return eta >= threshold * (1 - 1e-12)


EstimateBuilder = Callable[[], ErrorEstimate]
