"""What an analysis hands back: named fields, quantities, solver facts, frames and family extras."""

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fieldline_engine.core.fields import Field, FieldSet, Frames

if TYPE_CHECKING:
    from fieldline_engine.core.adaptive.estimate import ErrorEstimate


@dataclass
class Solution:
    fields: FieldSet = field(default_factory=FieldSet)
    quantities: dict[str, Any] = field(default_factory=dict)
    # Family facts for solver_info (matrix_size, non_zeros, element_order, iterations, …); the results
    # writer adds the physics-neutral ones (elements, computation time).
    solver_info: dict[str, Any] = field(default_factory=dict)
    animation: Frames | None = None
    # Top-level results keys only this family writes (the spec's EM keys, s_parameters,
    # time_domain_info, modes, grid, …). They must not collide with the writer's own keys.
    extras: dict[str, Any] = field(default_factory=dict)
    # Binary files written next to results.json (name → bytes), e.g. grid field arrays.
    side_files: dict[str, bytes] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    # Set when the config asks for adaptive refinement (core/adaptive/): the family's error estimate of
    # this solve, which the adaptive loop marks, refines and stops by.
    error_estimate: "ErrorEstimate | None" = None

    def add_field(self, f: Field) -> Field:
        return self.fields.add(f)

    def field(self, name: str) -> Field | None:
        return self.fields.get(name)
