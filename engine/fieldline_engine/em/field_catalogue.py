"""EM's named fields (docs/multiphysics.md §1) and the spec's EM result keys written from them.

The catalogue is the source: `efields`, `hfields`, `field_magnitudes`, `potential` and their companions
(spec 001 §3; `jfields`, `*_imag`, phase keys are the EM extensions docs/em-static.md names) are derived
here from the named fields, so the two never disagree.
"""

from typing import Any

import numpy as np

from fieldline_engine.core.fields import Field, FieldSet, Frames
from fieldline_engine.core.solution import Solution
from fieldline_engine.post.results import dense_scalar, dense_vectors

# name → (label, unit, kind)
EM_FIELDS: dict[str, tuple[str, str, str]] = {
    "potential": ("Electric potential", "V", "scalar"),
    "electric_field": ("Electric field", "V/m", "vector"),
    "magnetic_field": ("Magnetic field", "A/m", "vector"),
    "current_density": ("Current density", "A/m^2", "vector"),
    # per tetrahedron: the element's mean of σ|E|² = J·E (DC); the heat source Joule heating hands to thermal
    "joule_heat_density": ("Joule heat density", "W/m^3", "scalar"),
    "magnetic_flux_density": ("Magnetic flux density", "T", "vector"),
    # per tetrahedron: the time-averaged ohmic loss |J|²/2σ of an eddy-current run (what induction heating reads)
    "loss_density": ("Loss density", "W/m^3", "scalar"),
}
CELL_FIELDS = {"joule_heat_density", "loss_density"}

# field name → (vectors key, magnitudes key, imaginary-part key, dominant-phase key)
_SPEC_VECTOR_KEYS = {
    "electric_field": ("efields", "e_magnitudes", "efields_imag", "e_phase_deg"),
    "magnetic_field": ("hfields", "h_magnitudes", "hfields_imag", "h_phase_deg"),
    "current_density": ("jfields", "j_magnitudes", "jfields_imag", None),
}


def em_field(name: str, values: np.ndarray) -> Field:
    label, unit, kind = EM_FIELDS[name]
    location = "cell" if name in CELL_FIELDS else "vertex"
    return Field(name=name, label=label, unit=unit, kind=kind, values=np.asarray(values), location=location)  # type: ignore[arg-type]


def _dominant_phase(v: np.ndarray) -> np.ndarray:
    idx = np.argmax(np.abs(v), axis=1)
    return np.degrees(np.angle(v[np.arange(len(v)), idx]))


def spec_keys(fields: FieldSet, phases: bool = True) -> dict[str, Any]:
    """The spec's keys for the EM fields present. Complex fields: vectors hold the real part (the field at
        phase 0), `*_imag` the imaginary part, magnitudes the peak amplitude; `phases` adds the dominant
        component's phase per vertex and the `complex_fields` flag (the quasi-static results' extensions; full-wave
    results carry neither)."""
    out: dict[str, Any] = {}
    magnitudes: dict[str, Any] = {}
    for name, (vec_key, mag_key, imag_key, phase_key) in _SPEC_VECTOR_KEYS.items():
        f = fields.get(name)
        if f is None:
            continue
        magnitudes[mag_key] = dense_scalar(f.magnitude())
        out[vec_key] = dense_vectors(f.values.real)
        if f.complex:
            out[imag_key] = dense_vectors(f.values.imag)
            if phases and phase_key:
                magnitudes[phase_key] = dense_scalar(_dominant_phase(f.values))
    if magnitudes:
        out["field_magnitudes"] = magnitudes
    potential = fields.get("potential")
    if potential is not None:
        out["potential"] = dense_scalar(np.abs(potential.values) if potential.complex else potential.values)
        if potential.complex and phases:
            out["potential_phase_deg"] = dense_scalar(np.degrees(np.angle(potential.values)))
    if phases and any(f.complex for f in fields):
        out["complex_fields"] = True
    return out


# Frames × vertices × 3 above which animation frames carry the vector fields' magnitudes only.
MAX_ANIMATION_VECTOR_VALUES = 2_000_000
# Where an EM builder leaves its Frames among its results keys; em_solution moves them to the Solution.
ANIMATION_KEY = "_frames"


def field_frames(
    axis: str, values: list[float], e_frames: list[np.ndarray], h_frames: list[np.ndarray]
) -> Frames:
    """E and H snapshots as frames of the named fields; above MAX_ANIMATION_VECTOR_VALUES each frame holds
    |E| and |H| per vertex instead of the vectors (a frame entry of one number per vertex)."""
    count = len(e_frames)
    with_vectors = count * (len(e_frames[0]) if count else 0) * 3 <= MAX_ANIMATION_VECTOR_VALUES

    def shown(v: np.ndarray) -> np.ndarray:
        return v if with_vectors else np.linalg.norm(v, axis=1)

    data = [
        {"electric_field": shown(e), "magnetic_field": shown(h)}
        for e, h in zip(e_frames, h_frames, strict=True)
    ]
    return Frames(axis=axis, values=[float(v) for v in values], frames=data)  # type: ignore[arg-type]


def em_solution(fields: list[Field], results: dict[str, Any], phases: bool = True) -> Solution:
    """A Solution from an EM builder's named fields and the rest of its results (solver_info, quantities,
    frames, side files and the family's own keys); the spec keys are added from the fields."""
    extras = dict(results)
    solution = Solution(
        solver_info=extras.pop("solver_info", {}),
        quantities=extras.pop("quantities", {}),
        side_files=extras.pop("_side_files", None) or {},
        animation=extras.pop(ANIMATION_KEY, None),
    )
    for f in fields:
        solution.add_field(f)
    solution.extras = {**spec_keys(solution.fields, phases), **extras}
    return solution
