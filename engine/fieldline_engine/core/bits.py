"""NGSolve BitArrays (free DOFs, a region's DOFs) as NumPy masks.

`np.array(bits, dtype=bool)` reads a BitArray one Python item at a time: 18 ms at 40 k DOFs, ≈ 0.5 ms at a
small model's 1.4 k, and a job asks for several. A projector applies the bits in C++ instead (≈ 40× faster).
"""

import ngsolve as ng
import numpy as np


def mask(bits: ng.BitArray) -> np.ndarray:
    """The bits as a boolean array of their length."""
    ones = ng.BaseVector(len(bits))
    ones.FV().NumPy()[:] = 1.0
    kept = ones.CreateVector()
    kept.data = ng.Projector(bits, True) * ones
    return kept.FV().NumPy() != 0.0


def indices(bits: ng.BitArray) -> np.ndarray:
    """The positions of the set bits, ascending."""
    return np.flatnonzero(mask(bits))
