"""Mesh size controls and pipeline switches from the analysis config, with automatic defaults.

Sizes are in model units. Without a global maximum the element size is a twentieth of the model's
bounding-box diagonal; the minimum (which caps curvature refinement, and keeps small features from
exploding the element count) is a fiftieth of the maximum.
"""

from dataclasses import dataclass, field
from typing import Any

from fieldline_engine.errors import InvalidInput

AUTO_DIVISIONS = 20.0
MIN_FRACTION = 1 / 50
MAX_ESTIMATED_TETS = 30_000_000
ALGORITHMS = ("auto", "hxt", "delaunay", "netgen")
REPAIR_MODES = ("safe", "none")


@dataclass
class MeshOptions:
    max_size: float
    min_size: float
    curvature: bool
    elements_per_circle: int
    body_max_sizes: dict[int, float] = field(default_factory=dict)
    algorithm: str = "auto"
    repair: str = "safe"
    allow_shape_repair: bool = False
    threads: int = 1
    auto_size: bool = True
    grading: float = 0.3

    def size_of(self, body: int) -> float:
        return self.body_max_sizes.get(body, self.max_size)

    def largest(self) -> float:
        return max([self.max_size, *self.body_max_sizes.values()])

    def describe(self, body_names: list[str]) -> dict[str, Any]:
        return {
            "max_size": self.max_size,
            "min_size": self.min_size,
            "automatic": self.auto_size,
            "curvature_refinement": self.curvature,
            "elements_per_circle": self.elements_per_circle,
            "grading": self.grading,
            "body_max_sizes": {
                body_names[b]: h for b, h in self.body_max_sizes.items() if b < len(body_names)
            },
        }


def _positive(config: dict[str, Any], key: str) -> float | None:
    value = config.get(key)
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or not value > 0:
        raise InvalidInput(f"{key} must be a positive number (model units), got {value!r}.")
    return float(value)


def mesh_options(config: dict[str, Any], diagonal: float, body_names: list[str], threads: int) -> MeshOptions:
    if not diagonal > 0:
        raise InvalidInput("The model has no extent (all vertices coincide); there is nothing to mesh.")
    given_max = _positive(config, "meshMaxSize")
    max_size = given_max or diagonal / AUTO_DIVISIONS
    min_size = _positive(config, "meshMinSize") or max_size * MIN_FRACTION
    min_size = min(min_size, max_size)
    per_circle = config.get("meshElementsPerCircle", 12)
    if not isinstance(per_circle, int) or not 3 <= per_circle <= 120:
        raise InvalidInput("meshElementsPerCircle must be a whole number from 3 to 120.")
    algorithm = config.get("meshAlgorithm", "auto")
    if algorithm not in ALGORITHMS:
        raise InvalidInput(f"meshAlgorithm must be one of {', '.join(ALGORITHMS)}.")
    repair = config.get("meshRepair", "safe")
    if repair not in REPAIR_MODES:
        raise InvalidInput("meshRepair must be 'safe' or 'none'.")
    body_sizes: dict[int, float] = {}
    for entry in config.get("meshBodyMaxSizes") or []:
        ref = entry.get("region") if isinstance(entry, dict) else None
        size = entry.get("maxSize") if isinstance(entry, dict) else None
        if not isinstance(size, int | float) or isinstance(size, bool) or not size > 0:
            raise InvalidInput("Every meshBodyMaxSizes entry needs a positive maxSize.")
        if isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref < len(body_names):
            body_sizes[ref] = float(size)
        elif isinstance(ref, str) and ref in body_names:
            body_sizes[body_names.index(ref)] = float(size)
        else:
            raise InvalidInput(
                f"meshBodyMaxSizes refers to body {ref!r}, which the model does not have "
                f"(bodies: {', '.join(body_names)})."
            )
    grading = config.get("meshGrading", 0.3)
    if not isinstance(grading, int | float) or isinstance(grading, bool) or not 0 < grading <= 1:
        raise InvalidInput("meshGrading must be a number greater than 0 and at most 1.")
    return MeshOptions(
        grading=float(grading),
        max_size=max_size,
        min_size=min_size,
        curvature=bool(config.get("meshCurvatureRefinement", True)),
        elements_per_circle=per_circle,
        body_max_sizes=body_sizes,
        algorithm=algorithm,
        repair=repair,
        allow_shape_repair=bool(config.get("meshAllowShapeRepair", False)),
        threads=threads,
        auto_size=given_max is None,
    )


def check_estimated_size(volume: float, opts: MeshOptions, body_volumes: list[float] | None = None) -> None:
    """Refuses sizes that would create an absurd number of tetrahedra before any memory is spent.
    A mesh of size h has about 8.5·V/h³ tetrahedra (regular tetrahedra fill space at V/(h³/8.485))."""
    if body_volumes:
        estimate = sum(8.5 * v / opts.size_of(b) ** 3 for b, v in enumerate(body_volumes))
    else:
        estimate = 8.5 * volume / opts.max_size**3
    if estimate > MAX_ESTIMATED_TETS:
        raise InvalidInput(
            f"The requested element size would create about {estimate / 1e6:.0f} million tetrahedra; "
            f"at most {MAX_ESTIMATED_TETS // 1_000_000} million are allowed. Choose a larger maximum element size."
        )
