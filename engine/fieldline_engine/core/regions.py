"""Face ids → labelled surface regions, shared by every family's boundary conditions.

Face ids in the API are 1-based (face id k is row k-1 of `faces`): the spec's face lists drop zero and
invalid entries, so 0 is never a face. Each face carries at most one condition; its label names the
region the weak forms integrate over (the NGSolve mesh's boundary name). Bodies are named by 0-based
index or by name.
"""

from typing import Any

import numpy as np

from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.ngsolve_mesh import DEFAULT_LABEL
from fieldline_engine.mesh.tet_model import TetModel


class FaceLabeller:
    """Assigns one label per surface face and refuses a face claimed by two conditions."""

    def __init__(self, model: TetModel):
        self.nf = model.face_id_count
        self.face_ids = model.face_ids  # set on a refined model: several rows answer to one face id
        self.labels = np.full(len(model.faces), DEFAULT_LABEL, dtype=object)
        self.owner = np.full(len(model.faces), "", dtype=object)

    def to_rows(self, face_ids: list[int], what: str) -> np.ndarray:
        ids = np.asarray([int(f) for f in face_ids], dtype=np.int64)
        if ids.size == 0:
            raise InvalidInput(f"{what} has no faces. Pick at least one face.")
        bad = ids[(ids < 1) | (ids > self.nf)]
        if bad.size:
            raise InvalidInput(
                f"{what}: face id {int(bad[0])} is out of range; the model has {self.nf} surface faces (ids 1–{self.nf})."
            )
        if self.face_ids is not None:
            return np.nonzero(np.isin(self.face_ids, ids))[0]
        return ids - 1

    def assign(self, rows: np.ndarray, label: str, what: str) -> None:
        taken = rows[(self.owner[rows] != "") & (self.owner[rows] != what)]
        if taken.size:
            face = int(self.face_ids[taken[0]]) if self.face_ids is not None else int(taken[0]) + 1
            raise InvalidInput(f"Face {face} is used by both {self.owner[taken[0]]} and {what}.")
        self.labels[rows] = label
        self.owner[rows] = what

    def claim(self, face_ids: list[int], label: str, what: str) -> np.ndarray:
        """Rows of `face_ids`, labelled `label` on behalf of `what` (the condition's name in messages)."""
        rows = self.to_rows(face_ids, what)
        self.assign(rows, label, what)
        return rows


def region_index(model: TetModel, ref: Any, what: str) -> int:
    """A body by 0-based index (int or digit string) or by name."""
    count = len(model.region_names)
    if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
        i = int(ref)
        if 0 <= i < count:
            return i
    elif ref in model.region_names:
        return model.region_names.index(ref)
    raise InvalidInput(
        f"{what}: the model has no body '{ref}'. Bodies are numbered 0–{count - 1}"
        f" ({', '.join(model.region_names)})."
    )


def inherited_vertex_values(values: dict[int, float], model: TetModel) -> dict[int, float]:
    """Values given per vertex (fixed potentials by node id) on a refined model: a vertex that bisected the
    edge between two vertices with the same value takes that value, so a face fixed through its nodes stays
    fixed on all its pieces. Parents always have lower indices than the vertices they made."""
    parents = model.vertex_parents
    if parents is None or not values:
        return values
    out = dict(values)
    for v in np.nonzero(parents[:, 0] >= 0)[0].tolist():
        a, b = int(parents[v, 0]), int(parents[v, 1])
        if a in out and b in out and out[a] == out[b]:
            out[v] = out[a]
    return out
