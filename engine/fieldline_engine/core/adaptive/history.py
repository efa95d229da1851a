"""Error estimates of a transient run for adaptive refinement (docs/adaptive.md): the run's saved frames
each get their own estimate (a family's recovery of the gradient there), divided by that frame's energy
norm so each instant's relative error counts alike; an element's indicator is its largest over the frames,
and the estimated error the worst frame's. The mesh then serves the whole history — a front that sweeps
through a part draws refinement everywhere it passed, not only where it ended."""

from collections.abc import Callable
from typing import Any

import numpy as np

from fieldline_engine.core.adaptive.estimate import ErrorEstimate

# At most this many frames are estimated (evenly spread, always the last): the estimate costs a recovery
# per frame, and frames close in time see the same error.
MAX_ESTIMATED_FRAMES = 12


class HistoryEstimate:
    """Collects per-frame indicators: `add(eta2, norm2)` per estimated frame, `estimate(unknowns)` at the end.
    `wants(k, count)` tells whether frame k of `count` saved frames is estimated."""

    def __init__(self) -> None:
        self.indicators: np.ndarray | None = None
        self.worst = 0.0
        self.frames = 0

    @staticmethod
    def wants(k: int, count: int) -> bool:
        every = max(1, -(-count // MAX_ESTIMATED_FRAMES))
        return k % every == every - 1 or k == count - 1

    def add(self, eta2: np.ndarray, norm2: float) -> None:
        total = float(eta2.sum())
        if norm2 + total <= 0:
            return
        relative = eta2 / (norm2 + total)
        self.indicators = relative if self.indicators is None else np.maximum(self.indicators, relative)
        self.worst = max(self.worst, float(np.sqrt(total / (norm2 + total))))
        self.frames += 1

    def estimate(self, nt: int, unknowns: int, default_quantity: str | None) -> ErrorEstimate:
        indicators = self.indicators if self.indicators is not None else np.zeros(nt)
        return ErrorEstimate(indicators, unknowns, self.worst, default_quantity=default_quantity)


FrameEstimator = Callable[[Any], tuple[np.ndarray, float]]
