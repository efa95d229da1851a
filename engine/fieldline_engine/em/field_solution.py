"""What a static or quasi-static solve hands to post-processing, and helpers its solvers share."""

from dataclasses import dataclass, field
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.linear_solve import SolveReport
from fieldline_engine.em.boundary_conditions import ResolvedBoundaries
from fieldline_engine.errors import InvalidInput

# Each terminal-matrix column is one more solve; beyond this many groups the matrix is not computed.
MAX_MATRIX_TERMINALS = 16


@dataclass
class FieldSolution:
    regime: str  # electrostatics | steady conduction | quasi-statics
    potential: ng.GridFunction
    e_field: ng.CoefficientFunction
    current_density: ng.CoefficientFunction | None  # None where no current can flow
    complex_valued: bool
    frequency: float
    quantities: dict[str, Any]
    ndof: int
    non_zeros: int
    reports: list[tuple[str, SolveReport]] = field(default_factory=list)
    h_field: ng.CoefficientFunction | None = None
    magnetic_ndof: int = 0
    notes: list[str] = field(default_factory=list)


def require_grounding(bnd: ResolvedBoundaries, what: str, robin: bool = False) -> None:
    if not bnd.has_dirichlet and bnd.reference_vertex is None and not robin:
        raise InvalidInput(
            f"The {what} problem is floating: add a Dirichlet condition (a fixed voltage on some faces or "
            "nodes) or set a reference node."
        )


def fixed_vertices(bnd: ResolvedBoundaries) -> dict[int, float]:
    """Lone Dirichlet nodes, plus the reference node (0 V) when nothing else fixes the potential."""
    fixed = dict(bnd.dirichlet_vertices)
    if bnd.reference_vertex is not None and not bnd.has_dirichlet:
        fixed[bnd.reference_vertex] = 0.0
    return fixed


def matrix_groups(bnd: ResolvedBoundaries, labels: set[str] | None = None) -> list[Any]:
    """Dirichlet groups that take part in a terminal matrix: constant-voltage groups, at least two."""
    groups = [g for g in bnd.dirichlet if g.profile is None and (labels is None or g.label in labels)]
    return groups if 2 <= len(groups) <= MAX_MATRIX_TERMINALS else []


def matrix_entry(names: list[str], matrix: np.ndarray, complex_valued: bool) -> dict[str, Any]:
    sym = float(np.max(np.abs(matrix - matrix.T)) / max(np.max(np.abs(matrix)), 1e-300))
    entry: dict[str, Any] = {"terminals": names, "symmetry_error": sym}
    if complex_valued:
        entry["real"] = matrix.real.tolist()
        entry["imag"] = matrix.imag.tolist()
    else:
        entry["matrix"] = matrix.real.tolist()
    return entry


def phasor(value: complex) -> dict[str, float]:
    """A complex quantity as the UI shows it: parts, magnitude and phase in degrees (e^{+jωt})."""
    return {
        "real": float(value.real),
        "imag": float(value.imag),
        "magnitude": float(abs(value)),
        "phase_deg": float(np.degrees(np.angle(value))),
    }


def region_regex(indices: list[int]) -> str | None:
    return "|".join(f"body{i}" for i in indices) if indices else None


def two_terminal_voltages(bnd: ResolvedBoundaries) -> tuple[float, float] | None:
    volts = bnd.dirichlet_voltages()
    if len(volts) == 2 and not any(g.profile is not None for g in bnd.dirichlet):
        return volts[0], volts[1]
    return None
