"""`solidConductors: [{name?, region, current, phase?, terminals?, axis?}]`: massive conductors fed a total
current.

A solid conductor is driven by a voltage source whose field is e = −∇v (em/magnetics/eddy_current.py), v
a potential on the conductor that falls by one volt along it. Two kinds:
- open: v is 1 on its `in` terminal and 0 on its `out` terminal. The terminals are where the conductor
  leaves the model: faces on the model's outer boundary, through which the current comes from and returns
  to the rest of the circuit. Given as `terminals: {in: faces, out: faces}` (face ids as the other face
  lists), or found: when the conductor meets the outer boundary in exactly two separate patches, the patch
  holding the lower face id is `in`.
- closed: a ring around a hole with no terminals (a shorted turn, a single-turn loop, a transformer's
  solid secondary), recognised when no terminals are given and the body does not meet the boundary in
  two patches, or when an `axis` is given. v is the angle about the ring's axis over 2π, which jumps by
  one across a cut (the closed coil's machinery, coil_paths.ring_cut): e is curl-free with circulation
  one volt round the ring, and ∫ J·e dV is the current through the cut. The current circulates
  right-handed about `axis` (as a closed coil's).

v only has to take the terminal values (or the jump): the formulation absorbs any other part of ∇v into A,
so a first-order v is exact enough and needs no boundary labels.
"""

from dataclasses import dataclass
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.numbers import finite_number
from fieldline_engine.core.regions import region_index
from fieldline_engine.em.magnetics.coil_paths import ring_cut
from fieldline_engine.em.magnetics.eddy_current import MassiveConductor, body_mask
from fieldline_engine.errors import InvalidInput
from fieldline_engine.limits import parallel
from fieldline_engine.mesh.tet_model import TetModel


@dataclass
class SolidConductorSpec:
    name: str
    body: int
    current: complex  # peak phasor, A
    terminal_in: np.ndarray  # 0-based face rows (empty when closed)
    terminal_out: np.ndarray
    closed: bool = False  # a ring around a hole: the current circulates, no terminals
    axis: np.ndarray | None = None  # closed: the current circulates right-handed about it
    dc_current: float = 0.0  # the current as given: a magnetostatic run's DC current (the phase unused)


RING_ADVICE = (
    "A solid conductor without terminals must be a ring around a hole (its current circulates round it); "
    "otherwise give its terminals (the faces where the current enters and leaves, terminals: "
    "{in: [...], out: [...]}), or model it as an eddy-current body (a conductivity without a fed current)."
)


def read_solid_conductors(model: TetModel, config: dict[str, Any]) -> list[SolidConductorSpec]:
    specs: list[SolidConductorSpec] = []
    for entry in config.get("solidConductors") or []:
        body = region_index(model, entry.get("region"), "Solid conductor")
        name = str(entry.get("name") or model.region_names[body])
        amplitude = finite_number(entry.get("current"), f"Solid conductor '{name}': current")
        phase = np.radians(finite_number(entry.get("phase", 0.0) or 0.0, f"Solid conductor '{name}': phase"))
        terminals = entry.get("terminals")
        axis = _axis(entry.get("axis"), name)
        closed = False
        if terminals:
            if axis is not None:
                raise InvalidInput(
                    f"Solid conductor '{name}': give terminals (an open conductor) or an axis (a closed ring), "
                    "not both."
                )
            t_in = _face_rows(model, terminals.get("in"), name, "in")
            t_out = _face_rows(model, terminals.get("out"), name, "out")
        else:
            found = None if axis is not None else _found_terminals(model, body)
            closed = found is None
            t_in, t_out = found if found is not None else (np.zeros(0, np.int64), np.zeros(0, np.int64))
        for side, rows in (("in", t_in), ("out", t_out)):
            if not np.all(model.face_inner_region[rows] == body) and not np.all(
                model.face_outer_region[rows] == body
            ):
                raise InvalidInput(
                    f"Solid conductor '{name}': its {side} terminal faces are not faces of its body."
                )
        if body in [s.body for s in specs]:
            raise InvalidInput(
                f"Solid conductor '{name}': body '{model.region_names[body]}' is listed twice."
            )
        specs.append(
            SolidConductorSpec(
                name, body, amplitude * np.exp(1j * phase), t_in, t_out, closed, axis, amplitude
            )
        )
    return specs


def _axis(value: Any, name: str) -> np.ndarray | None:
    if value is None:
        return None
    what = f"Solid conductor '{name}': axis"
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise InvalidInput(f"{what} must be a vector [x, y, z].")
    axis = np.array([finite_number(v, what) for v in value], dtype=float)
    if not np.linalg.norm(axis) > 0:
        raise InvalidInput(f"{what} must not be [0, 0, 0].")
    return axis


def _face_rows(model: TetModel, faces: Any, name: str, side: str) -> np.ndarray:
    ids = np.asarray(faces or [], dtype=np.int64)
    if ids.size == 0 or ids.min() < 1 or ids.max() > len(model.faces):
        raise InvalidInput(
            f"Solid conductor '{name}': terminals.{side} needs face ids between 1 and {len(model.faces)}."
        )
    return ids - 1


def _found_terminals(model: TetModel, body: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The two patches where the conductor meets the model's boundary, or None when it does not meet it in
    exactly two (then it must be a closed ring, which the mesh-side path checks)."""
    rows = np.nonzero((model.face_inner_region == body) & (model.face_outer_region == -1))[0]
    patches = _connected_patches(model.faces[rows])
    if len(patches) != 2:
        return None
    first, second = (rows[p] for p in patches)
    return (first, second) if first.min() < second.min() else (second, first)


def _connected_patches(tris: np.ndarray) -> list[np.ndarray]:
    """Groups of triangles connected through shared vertices (union-find on vertices)."""
    if len(tris) == 0:
        return []
    parent = {int(v): int(v) for v in np.unique(tris)}

    def root(v: int) -> int:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for a, b, c in tris:
        ra = root(int(a))
        for other in (int(b), int(c)):
            ro = root(other)
            if ro != ra:
                parent[ro] = ra
    labels = np.array([root(int(t[0])) for t in tris])
    return [np.nonzero(labels == lab)[0] for lab in np.unique(labels)]


def massive_conductors(
    mesh: ng.Mesh, model: TetModel, specs: list[SolidConductorSpec]
) -> list[MassiveConductor]:
    return [MassiveConductor(s.name, s.body, unit_voltage_field(mesh, model, s), s.current) for s in specs]


def unit_voltage_field(mesh: ng.Mesh, model: TetModel, spec: SolidConductorSpec) -> ng.CoefficientFunction:
    """E of one volt across the conductor (zero outside it): along it from `in` to `out`, or once round a
    closed ring."""
    if spec.closed:
        what = f"Solid conductor '{spec.name}'"
        return ring_cut(mesh, spec.body, spec.axis, what, RING_ADVICE)[0]
    return _unit_voltage_field(mesh, model, spec)


def _unit_voltage_field(mesh: ng.Mesh, model: TetModel, spec: SolidConductorSpec) -> ng.CoefficientFunction:
    """−∇v for v harmonic on the conductor, 1 on `in`, 0 on `out` (first order; vertex DOFs = vertices)."""
    region = body_mask(mesh, {spec.body})
    fes = ng.H1(mesh, order=1, definedon=region)
    p, q = fes.TnT()
    a = ng.BilinearForm(ng.grad(p) * ng.grad(q) * ng.dx(definedon=region), symmetric=True)
    v_in = np.unique(model.faces[spec.terminal_in])
    v_out = np.unique(model.faces[spec.terminal_out])
    if np.intersect1d(v_in, v_out).size:
        raise InvalidInput(f"Solid conductor '{spec.name}': its in and out terminals touch each other.")
    free = ng.BitArray(fes.FreeDofs())
    for vertex in np.concatenate([v_in, v_out]):
        free.Clear(int(vertex))
    gf = ng.GridFunction(fes)
    gf.vec[:] = 0.0
    values = gf.vec.FV().NumPy()
    values[v_in] = 1.0
    with parallel(fes.ndof):
        a.Assemble()
        residual = gf.vec.CreateVector()
        residual.data = -a.mat * gf.vec
        gf.vec.data += a.mat.Inverse(free, inverse="sparsecholesky") * residual
    indicator = mesh.MaterialCF({f"body{spec.body}": 1.0}, default=0.0)
    return -ng.grad(gf) * indicator


def solid_conductor_air(
    model: TetModel, config: dict[str, Any], solids: list[SolidConductorSpec]
) -> bool | None:
    """Whether air is meshed around a device with solid conductors: only when asked (airPadding > 0) and
    every conductor is a closed ring — an open conductor's terminals lie on the model's boundary, where its
    circuit closes, so that model holds its own air. None without solid conductors (the usual rule)."""
    if not solids:
        return None
    padding = config.get("airPadding")
    asked = padding is not None and float(padding) > 0
    open_ends = [s.name for s in solids if not s.closed]
    if asked and open_ends:
        raise InvalidInput(
            f"Air is added only around a whole device: solid conductor '{open_ends[0]}' has terminals on the "
            "model's boundary (where its circuit closes), so the model must hold its own air. Set airPadding to 0."
        )
    if not asked:
        outer = model.face_outer_region == -1
        touching = set(np.unique(model.face_inner_region[outer]).tolist())
        bare = [s.name for s in solids if s.closed and s.body in touching]
        if bare:
            raise InvalidInput(
                f"Solid conductor '{bare[0]}' is a closed ring on the model's outside: its field needs air "
                "around it. Set airPadding (e.g. 3: air out to 4× the model's radius) to have air meshed "
                "around the device, or model the air as a body."
            )
    return asked
