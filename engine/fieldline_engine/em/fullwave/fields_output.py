"""Time-harmonic fields at the model's vertices as named fields, plus phase animation frames.

E and H are complex phasors (e^{+jωt}, peak values); em/field_catalogue.py writes the spec's keys from
them: `field_magnitudes` the phasor magnitudes √(|Ex|²+|Ey|²+|Ez|²), `efields`/`hfields` the real part
(the field at phase 0), `efields_imag`/`hfields_imag` the imaginary part, so
E(t) = Re(E)·cos ωt − Im(E)·sin ωt.
"""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.fields import Field, Frames
from fieldline_engine.em.field_catalogue import ANIMATION_KEY, em_field, field_frames
from fieldline_engine.post.vertex_fields import vector_at_vertices


def harmonic_fields(
    mesh: ng.Mesh,
    nv: int,
    e_field: ng.CoefficientFunction,
    h_field: ng.CoefficientFunction,
    animate: bool = False,
    frames: int = 50,
    order: int = 1,
) -> tuple[list[Field], dict[str, Any]]:
    """The named phasor fields E and H at the vertices, and the phase animation (when asked) as results
    keys. `order`: the field's element order; vertex values are the averages of the adjacent elements'."""
    e = vector_at_vertices(mesh, e_field, complex_valued=True, order=order)[:nv]
    h = vector_at_vertices(mesh, h_field, complex_valued=True, order=max(1, order - 1))[:nv]
    extras: dict[str, Any] = {}
    if animate:
        extras[ANIMATION_KEY] = phase_frames(e, h, frames)
    return [em_field("electric_field", e), em_field("magnetic_field", h)], extras


def phase_frames(e: np.ndarray, h: np.ndarray, frames: int) -> Frames:
    """Snapshots Re(E·e^{jφ}) over one period, φ = 360°·k/frames."""
    frames = max(1, int(frames))
    phases = [360.0 * k / frames for k in range(frames)]
    rotations = [np.exp(1j * np.radians(p)) for p in phases]
    return field_frames("phase", phases, [(e * r).real for r in rotations], [(h * r).real for r in rotations])
