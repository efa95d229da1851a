"""The `adaptiveRefinement` settings of an analysis config, checked once before the first pass."""

from dataclasses import dataclass
from typing import Any

from fieldline_engine.errors import InvalidInput

DEFAULT_MAX_PASSES = 8
DEFAULT_FRACTION = 0.3
DEFAULT_MAX_UNKNOWNS = 200_000
MAX_PASSES_LIMIT = 30


@dataclass(frozen=True)
class AdaptiveSettings:
    tolerance: float
    quantity: str | None
    max_passes: int
    max_unknowns: int
    fraction: float
    # Full-wave: the frequency the passes solve at (Hz); None = the family's choice (the sweep's highest).
    frequency: float | None = None


def adaptive_requested(config: dict[str, Any]) -> bool:
    return isinstance(config.get("adaptiveRefinement"), dict)


def adaptive_settings(config: dict[str, Any], default_tolerance: float) -> AdaptiveSettings | None:
    raw = config.get("adaptiveRefinement")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InvalidInput(
            "adaptiveRefinement must be an object: {tolerance, quantity, maxPasses, maxUnknowns}."
        )
    tolerance = float(raw.get("tolerance", default_tolerance))
    if not 0 < tolerance < 1:
        raise InvalidInput("Adaptive refinement: tolerance must be between 0 and 1 (0.01 asks for 1 %).")
    max_passes = int(raw.get("maxPasses", DEFAULT_MAX_PASSES))
    if not 1 <= max_passes <= MAX_PASSES_LIMIT:
        raise InvalidInput(f"Adaptive refinement: maxPasses must be between 1 and {MAX_PASSES_LIMIT}.")
    max_unknowns = int(raw.get("maxUnknowns", DEFAULT_MAX_UNKNOWNS))
    if max_unknowns < 1:
        raise InvalidInput("Adaptive refinement: maxUnknowns must be a positive number of unknowns.")
    fraction = float(raw.get("fraction", DEFAULT_FRACTION))
    if not 0 < fraction <= 1:
        raise InvalidInput("Adaptive refinement: fraction must be above 0 and at most 1.")
    quantity = raw.get("quantity") or None
    frequency = raw.get("frequency")
    return AdaptiveSettings(
        tolerance=tolerance,
        quantity=str(quantity) if quantity is not None else None,
        max_passes=max_passes,
        max_unknowns=max_unknowns,
        fraction=fraction,
        frequency=float(frequency) if frequency is not None else None,
    )
