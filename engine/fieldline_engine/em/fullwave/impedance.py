"""Impedance (Leontovich) boundaries: E_t = Z_s (H × n) on the selected faces, n out of the domain.

`impedance: {real, imag}` is Z_s in Ω for e^{+jωt} (50+0j by default). A face group may instead give
`conductivity` (S/m, and optionally `permeability`, relative) for a good conductor, whose surface
impedance follows the frequency: Z_s = (1 + j)·R_s with R_s = √(ωμ/2σ).
"""

import math
from collections.abc import Callable
from typing import Any

from fieldline_engine.em.boundary_conditions import ResolvedBoundaries
from fieldline_engine.em.constants import MU0
from fieldline_engine.em.fullwave.solver import ImpedanceWall
from fieldline_engine.errors import InvalidInput


def good_conductor_impedance(sigma: float, mu_r: float = 1.0) -> Callable[[float], complex]:
    def z(frequency: float) -> complex:
        rs = math.sqrt(2 * math.pi * frequency * MU0 * mu_r / (2 * sigma))
        return complex(rs, rs)

    return z


def walls_from_config(bnd: ResolvedBoundaries, config: dict[str, Any]) -> list[ImpedanceWall]:
    walls: list[ImpedanceWall] = []
    conditions = config.get("impedanceConditions") or []
    for (label, z), cond in zip(bnd.impedance, conditions, strict=True):
        sigma = cond.get("conductivity")
        if sigma is not None:
            sigma = float(sigma)
            if sigma <= 0:
                raise InvalidInput(f"Impedance condition on {label}: conductivity must be above 0 S/m.")
            mu_r = float(cond.get("permeability", 1.0) or 1.0)
            walls.append(
                ImpedanceWall(label, good_conductor_impedance(sigma, mu_r), f"good conductor σ={sigma:g} S/m")
            )
            continue
        if z == 0:
            raise InvalidInput(
                f"Impedance condition on {label}: Z = 0 is a perfect conductor; leave the faces without a condition."
            )
        walls.append(
            ImpedanceWall(
                label, lambda _f, z=z: z, f"Z = {z.real:g} {'+' if z.imag >= 0 else '-'} j{abs(z.imag):g} Ω"
            )
        )
    return walls
