"""The length unit a STEP file declares (ISO 10303-41 LENGTH_UNIT), read from the text of the file.

OpenCascade converts every STEP file to millimetres unless told otherwise; we read the declared unit
first and ask OCC for exactly that unit, so coordinates come back in the file's own unit.
"""

import re
from pathlib import Path

# SI prefixes we can express in the API's units; other prefixes fall back to metres with a scale.
_SI_PREFIX_TO_UNIT = {"MILLI": "mm", "CENTI": "cm", "MICRO": "um", "": "m"}
_CONVERSION_TO_UNIT = {"INCH": "in", "FOOT": "ft", "FEET": "ft", "MIL": "in", "THOU": "in"}

# Geometry.OCCTargetUnit values (OpenCascade's xstep.cascade.unit names).
OCC_UNIT_NAME = {"mm": "MM", "cm": "CM", "m": "M", "um": "UM", "in": "INCH", "ft": "FT"}

_ENTITY = re.compile(r"#(\d+)\s*=\s*(.*?);", re.DOTALL)
_SI_UNIT = re.compile(r"SI_UNIT\s*\(\s*(?:\.(\w+)\.|\$)\s*,\s*\.METRE\.\s*\)", re.IGNORECASE)
_CONVERSION = re.compile(r"CONVERSION_BASED_UNIT\s*\(\s*'([^']*)'", re.IGNORECASE)
_GLOBAL_UNITS = re.compile(r"GLOBAL_UNIT_ASSIGNED_CONTEXT\s*\(\s*\(([^)]*)\)", re.IGNORECASE)

# Reading the whole DATA section of a large file is not needed: units sit near the top or the end,
# but exporters differ, so we scan the file in full up to this size and fall back to mm beyond it.
_MAX_SCAN_BYTES = 256 * 1024 * 1024


def _length_unit_of(body: str) -> str | None:
    if "LENGTH_UNIT" not in body.upper():
        return None
    conv = _CONVERSION.search(body)
    if conv:
        return _CONVERSION_TO_UNIT.get(conv.group(1).strip().upper())
    si = _SI_UNIT.search(body)
    if si:
        return _SI_PREFIX_TO_UNIT.get((si.group(1) or "").upper())
    return None


def step_length_unit(path: Path) -> str:
    """'mm', 'cm', 'm', 'um', 'in' or 'ft': the unit the file's geometric context declares (mm if none)."""
    if path.stat().st_size > _MAX_SCAN_BYTES:
        return "mm"
    text = path.read_bytes().decode("latin-1")
    units: dict[str, str] = {}
    for match in _ENTITY.finditer(text):
        body = match.group(2)
        if "UNIT" not in body.upper():
            continue
        unit = _length_unit_of(body)
        if unit is not None:
            units[match.group(1)] = unit
    if not units:
        return "mm"
    # Prefer the length unit that a geometric context actually assigns.
    for ctx in _GLOBAL_UNITS.finditer(text):
        for ref in re.findall(r"#(\d+)", ctx.group(1)):
            if ref in units:
                return units[ref]
    return next(iter(units.values()))
