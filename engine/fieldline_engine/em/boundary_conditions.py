"""Boundary conditions from the analysis config, resolved onto the model's surface faces.

Face ids resolve through core/regions.py (1-based, one condition per face). Node ids are 0-based
vertex indices.
"""

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fieldline_engine.core.regions import FaceLabeller, inherited_vertex_values
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel


@dataclass
class DirichletGroup:
    label: str
    voltage: float
    name: str
    # A prescribed potential profile instead of one voltage (an applied uniform field, say); engine-internal.
    profile: Any = None


@dataclass
class ResolvedBoundaries:
    face_labels: np.ndarray  # (nf,) object array of labels
    dirichlet: list[DirichletGroup] = field(default_factory=list)
    # Vertices fixed by node id that no fully constrained face covers: vertex index -> volts.
    dirichlet_vertices: dict[int, float] = field(default_factory=dict)
    neumann: list[tuple[str, float]] = field(default_factory=list)
    impedance: list[tuple[str, complex]] = field(default_factory=list)
    ports: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    reference_vertex: int | None = None

    def labels_of(self, prefix: str) -> list[str]:
        return sorted({str(x) for x in self.face_labels if str(x).startswith(prefix)})

    @property
    def has_dirichlet(self) -> bool:
        return bool(self.dirichlet or self.dirichlet_vertices)

    def dirichlet_voltages(self) -> list[float]:
        """Distinct fixed voltages (groups with a profile are not counted)."""
        volts = {g.voltage for g in self.dirichlet if g.profile is None}
        return sorted(volts | set(self.dirichlet_vertices.values()))


def resolve_boundaries(model: TetModel, config: dict[str, Any]) -> ResolvedBoundaries:
    lab = FaceLabeller(model)
    out = ResolvedBoundaries(face_labels=lab.labels)

    for k, cond in enumerate(config.get("dirichletFaceConditions") or []):
        label, what = f"dirichlet_{len(out.dirichlet)}", f"Dirichlet face group {k + 1}"
        lab.assign(lab.to_rows(cond.get("faces") or [], what), label, what)
        out.dirichlet.append(DirichletGroup(label, float(cond["voltage"]), cond.get("name") or what))

    _resolve_node_dirichlet(model, config.get("dirichletConditions") or {}, lab, out)

    for k, cond in enumerate(config.get("neumannConditions") or []):
        label, what = f"neumann_{k}", f"Neumann condition {k + 1}"
        lab.assign(lab.to_rows(cond.get("faces") or [], what), label, what)
        out.neumann.append((label, float(cond.get("flux", 0.0))))

    for k, cond in enumerate(config.get("impedanceConditions") or []):
        label, what = f"impedance_{k}", f"Impedance condition {k + 1}"
        lab.assign(lab.to_rows(cond.get("faces") or [], what), label, what)
        z = cond.get("impedance") or {}
        out.impedance.append((label, complex(float(z.get("real", 50.0)), float(z.get("imag", 0.0)))))

    if config.get("useWavePorts"):
        for k, port in enumerate(config.get("wavePorts") or []):
            label, what = f"port_{k}", f"Wave port {port.get('portID', k + 1)}"
            lab.assign(lab.to_rows(port.get("faces") or [], what), label, what)
            out.ports.append((label, port))

    ref = config.get("referenceNode")
    if ref is not None:
        ref = int(ref)
        if ref < 0 or ref >= model.nv:
            raise InvalidInput(
                f"Reference node {ref} is out of range; the model has {model.nv} nodes (0–{model.nv - 1})."
            )
        out.reference_vertex = ref
    return out


def _resolve_node_dirichlet(
    model: TetModel, conditions: dict[str, Any], lab: FaceLabeller, out: ResolvedBoundaries
) -> None:
    """Node→volts pairs: faces whose three nodes share one voltage become a Dirichlet face group
    (so higher-order DOFs on them are fixed too); leftover nodes are fixed individually."""
    if not conditions:
        return
    node_volts: dict[int, float] = {}
    for key, volts in conditions.items():
        try:
            node = int(key)
        except ValueError as exc:
            raise InvalidInput(f"Dirichlet condition: node id '{key}' is not an integer.") from exc
        if node < 0 or node >= model.nv:
            raise InvalidInput(
                f"Dirichlet condition: node {node} is out of range; the model has {model.nv} nodes (0–{model.nv - 1})."
            )
        node_volts[node] = float(volts)
    node_volts = inherited_vertex_values(node_volts, model)  # a refined model's new vertices on fixed faces

    values = np.full(model.nv, np.nan)
    for node, volts in node_volts.items():
        values[node] = volts
    fv = values[model.faces]
    full = np.all(np.isfinite(fv), axis=1) & (fv[:, 0] == fv[:, 1]) & (fv[:, 1] == fv[:, 2])
    covered_nodes: set[int] = set()
    for volts in sorted({float(v) for v in fv[full, 0]}):
        rows = np.nonzero(full & (fv[:, 0] == volts))[0]
        free_rows = rows[lab.owner[rows] == ""]
        if free_rows.size == 0:
            continue
        label = f"dirichlet_{len(out.dirichlet)}"
        what = f"Dirichlet nodes at {volts:g} V"
        lab.assign(free_rows, label, what)
        out.dirichlet.append(DirichletGroup(label, volts, what))
        covered_nodes.update(int(n) for n in np.unique(model.faces[free_rows]))
    out.dirichlet_vertices = {n: v for n, v in node_volts.items() if n not in covered_nodes}
