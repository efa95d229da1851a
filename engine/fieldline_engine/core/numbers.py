"""Reading numbers from a job's config: one rule and one wording for every family."""

import math
from typing import Any

from fieldline_engine.errors import InvalidInput


def finite_number(value: Any, what: str) -> float:
    """`value` as a float; a clear InvalidInput naming `what` when it is not a finite number."""
    try:
        out = float(value)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"{what} must be a number.") from exc
    if not math.isfinite(out):
        raise InvalidInput(f"{what} must be a finite number.")
    return out
