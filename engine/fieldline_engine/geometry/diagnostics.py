"""Problems found in a geometry, repairs made to it, and the problem-markers payload (spec 001 §3).

A Problem names the triangles and vertices of the *report surface* (the surface as the user uploaded
it, vertices welded) with one human sentence, so the viewer can highlight exactly what is wrong.
"""

from dataclasses import dataclass, field
from typing import Any

import numpy as np

PROBLEM_MARKERS_VERSION = 1
MAX_LISTED = 8  # triangles named in one sentence before "and N more"

# Words the environment's error rewrite looks for (spec 001 §8); each message below contains one.
KIND_LABEL = {
    "self_intersection": "self-intersections",
    "overlapping_triangles": "self-intersections (overlapping triangles)",
    "non_manifold_edge": "non-manifold edges",
    "open_boundary": "open boundaries (holes) in the surface mesh",
    "degenerate_triangle": "degenerate triangles with zero area (zero volume)",
    "inconsistent_orientation": "inconsistently oriented triangles in the surface mesh",
    "overlapping_bodies": "bodies that intersect each other",
    "cad_face": "CAD faces that could not be meshed (invalid surface mesh)",
    "mesher": "a volume mesher failure",
}


@dataclass
class Problem:
    kind: str
    message: str
    faces: list[int] = field(default_factory=list)
    vertices: list[int] = field(default_factory=list)
    point: list[float] | None = None
    body: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "message": self.message,
            "faces": self.faces,
            "vertices": self.vertices,
        }
        if self.point is not None:
            out["point"] = self.point
        if self.body is not None:
            out["body"] = self.body
        return out


@dataclass
class Repair:
    kind: str
    message: str
    faces: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "faces": self.faces}


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def list_ids(ids: list[int] | np.ndarray, base: int = 0) -> str:
    """'12, 13 and 40' or '12, 13, … and 37 more' (0-based ids shown as given)."""
    ids = [int(i) + base for i in ids]
    if len(ids) <= 1:
        return ", ".join(map(str, ids))
    if len(ids) <= MAX_LISTED:
        return ", ".join(map(str, ids[:-1])) + f" and {ids[-1]}"
    return ", ".join(map(str, ids[:MAX_LISTED])) + f" and {len(ids) - MAX_LISTED} more"


def fmt_point(p: np.ndarray | list[float]) -> str:
    return "(" + ", ".join(f"{float(x):.4g}" for x in p) + ")"


def failure_message(problems: list[Problem], prefix: str = "Meshing failed") -> str:
    """One summary line naming every kind found, in the spec's vocabulary."""
    kinds = [k for k in KIND_LABEL if any(p.kind == k for p in problems)]
    counts = {k: sum(1 for p in problems if p.kind == k) for k in kinds}
    parts = [f"{counts[k]} × {KIND_LABEL[k]}" for k in kinds]
    head = problems[0].message if problems else ""
    return f"{prefix}: the surface mesh is invalid — {'; '.join(parts)}. First problem: {head}"


def problem_markers_payload(
    vertices: np.ndarray,
    faces: np.ndarray,
    problems: list[Problem],
    error: str,
    units: str | None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The payload of spec 001 §3 ("Problem markers"), served as tetra_output.json."""
    problem_faces = sorted({f for p in problems for f in p.faces})
    problem_vertices = sorted({v for p in problems for v in p.vertices})
    payload: dict[str, Any] = {
        "format_version": PROBLEM_MARKERS_VERSION,
        "meshing_failed": True,
        "vertices": np.asarray(vertices, dtype=float).tolist(),
        "faces": np.asarray(faces, dtype=np.int64).tolist(),
        "problem_vertices": problem_vertices,
        "problem_faces": problem_faces,
        "diagnostics": [p.to_json() for p in problems],
        "format": "problem_markers",
        "error": error,
    }
    if units:
        payload["units"] = units
    if extra:
        payload.update(extra)
    return payload
