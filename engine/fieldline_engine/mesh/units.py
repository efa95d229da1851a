"""Length units of uploaded models. The engine computes in SI (metres)."""

from fieldline_engine.errors import InvalidInput

METRES_PER_UNIT = {"m": 1.0, "cm": 1e-2, "mm": 1e-3, "um": 1e-6, "in": 0.0254, "ft": 0.3048}


def metres_per_unit(unit: str | None) -> float:
    """Scale from model units to metres. A mesh without a unit is taken to be in metres."""
    if unit is None or unit == "":
        return 1.0
    key = unit.strip().lower()
    if key not in METRES_PER_UNIT:
        raise InvalidInput(f"Unknown length unit '{unit}'. Use one of: {', '.join(METRES_PER_UNIT)}.")
    return METRES_PER_UNIT[key]
