"""Rounding large float arrays for JSON: 7 significant digits print short and keep float32 accuracy."""

import numpy as np


def round_significant(values: np.ndarray, digits: int = 7) -> list:
    x = np.asarray(values, dtype=np.float64)
    out = np.zeros_like(x)
    nz = np.isfinite(x) & (x != 0)
    exponent = np.floor(np.log10(np.abs(x[nz])))
    scale = 10.0 ** (digits - 1 - exponent)
    out[nz] = np.round(x[nz] * scale) / scale
    return out.tolist()
