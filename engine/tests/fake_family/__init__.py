"""A throw-away analysis family for the registry test: one folder, registered with one line."""

from typing import Any

import numpy as np

from fieldline_engine.core.fields import Field, Frames
from fieldline_engine.core.solution import Solution
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.protocol import ProgressSpan


class DistanceAnalysis:
    """'Solves' for the distance of each vertex from the origin: enough to see a family's field travel."""

    analysis_type = "fake-distance"

    def check(self, config: dict[str, Any]) -> list[str]:
        return ["fake family: nothing to check"]

    def solve(self, model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
        progress(0.5, "Measuring")
        r = np.linalg.norm(model.vertices, axis=1)
        solution = Solution(solver_info={"analysis": "fake-distance", "matrix_size": 0})
        solution.add_field(Field("distance", "Distance", "m", "scalar", r))
        solution.quantities["max_distance_m"] = float(r.max())
        solution.animation = Frames("time", [0.0, 1.0], [{"distance": 0 * r}, {"distance": r}])
        return solution
