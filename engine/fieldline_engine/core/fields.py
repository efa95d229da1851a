"""Named result fields and animation frames (docs/multiphysics.md §1–2).

A `Field` is one named array on the mesh — a scalar, vector or symmetric tensor per vertex or per
tetrahedron — with its label and SI unit. Writers (results.json, results.bin, VTU) and the viewer iterate
fields by name; nothing downstream of a family knows which names it produces.
"""

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

FieldKind = Literal["scalar", "vector", "tensor"]
FieldLocation = Literal["vertex", "cell"]
FrameAxis = Literal["time", "phase", "mode", "frequency"]

COMPONENTS = {"scalar": 1, "vector": 3, "tensor": 6}  # tensor: symmetric, Voigt xx yy zz xy yz xz
AXIS_UNITS = {"time": "s", "phase": "deg", "mode": "Hz", "frequency": "Hz"}


@dataclass
class Field:
    name: str
    label: str
    unit: str
    kind: FieldKind
    values: np.ndarray  # (n,) or (n, 3) or (n, 6); complex dtype for phasors (e^{+jωt})
    location: FieldLocation = "vertex"
    role: str | None = None  # "deformation": a displacement the viewer may warp the mesh by

    def __post_init__(self) -> None:
        width = COMPONENTS[self.kind]
        arr = np.asarray(self.values)
        arr = arr.reshape(-1) if width == 1 else arr.reshape(-1, width)
        self.values = arr

    @property
    def complex(self) -> bool:
        return np.iscomplexobj(self.values)

    @property
    def size(self) -> int:
        return int(self.values.shape[0])

    def describe(self) -> dict[str, Any]:
        """The catalogue entry without data: what results.bin's header and the results info carry."""
        entry: dict[str, Any] = {
            "label": self.label,
            "unit": self.unit,
            "kind": self.kind,
            "location": self.location,
            "complex": self.complex,
        }
        if self.role:
            entry["role"] = self.role
        return entry

    def magnitude(self) -> np.ndarray:
        """|value| per entry: the peak amplitude √(Σ|F_i|²) for complex vectors, |x| for scalars."""
        v = self.values
        if self.kind == "scalar":
            return np.abs(v)
        return np.sqrt(np.sum(np.abs(v) ** 2, axis=1))


@dataclass
class Frames:
    """Animation frames on one axis: `frames[k]` maps field names to arrays shaped like the fields'."""

    axis: FrameAxis
    values: list[float]
    frames: list[dict[str, np.ndarray]]
    labels: list[str] | None = None
    unit: str | None = None  # defaults from the axis

    def __post_init__(self) -> None:
        if len(self.values) != len(self.frames):
            raise ValueError("one axis value per frame")
        if self.unit is None:
            self.unit = AXIS_UNITS[self.axis]

    @property
    def field_names(self) -> list[str]:
        names: list[str] = []
        for frame in self.frames:
            for name in frame:
                if name not in names:
                    names.append(name)
        return names


@dataclass
class FieldSet:
    """An ordered set of fields by name (the order is the viewer's default order)."""

    items: dict[str, Field] = field(default_factory=dict)

    def add(self, f: Field) -> Field:
        if f.name in self.items:
            raise ValueError(f"field '{f.name}' is already set")
        self.items[f.name] = f
        return f

    def get(self, name: str) -> Field | None:
        return self.items.get(name)

    def __iter__(self):
        return iter(self.items.values())

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, name: object) -> bool:
        return name in self.items
