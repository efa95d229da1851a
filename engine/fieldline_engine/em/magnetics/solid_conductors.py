"""`solidConductors: [{name?, region, current, phase?, terminals?}]`: massive conductors fed a total current.

A solid conductor is driven by a voltage source whose field is e = −∇v (em/magnetics/eddy_current.py), v
a potential on the conductor that is 1 on its `in` terminal and 0 on its `out` terminal. The terminals are
where the conductor leaves the model: faces on the model's outer boundary, through which the current comes
from and returns to the rest of the circuit. Given as `terminals: {in: faces, out: faces}` (face ids as
the other face lists), or found: when the conductor meets the outer boundary in exactly two separate
patches, the patch holding the lower face id is `in`. (A conductor closed on itself inside the model —
a ring — has no terminals; it needs a cut, which the closed-coil current path provides.)

v only has to take the terminal values: the formulation absorbs any other part of ∇v into A, so a
first-order harmonic v is exact enough and needs no boundary labels (its terminal vertices are fixed).
"""

from dataclasses import dataclass
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.numbers import finite_number
from fieldline_engine.core.regions import region_index
from fieldline_engine.em.magnetics.eddy_current import MassiveConductor, body_mask
from fieldline_engine.errors import InvalidInput
from fieldline_engine.limits import parallel
from fieldline_engine.mesh.tet_model import TetModel


@dataclass
class SolidConductorSpec:
    name: str
    body: int
    current: complex  # peak phasor, A
    terminal_in: np.ndarray  # 0-based face rows
    terminal_out: np.ndarray


def read_solid_conductors(model: TetModel, config: dict[str, Any]) -> list[SolidConductorSpec]:
    specs: list[SolidConductorSpec] = []
    for entry in config.get("solidConductors") or []:
        body = region_index(model, entry.get("region"), "Solid conductor")
        name = str(entry.get("name") or model.region_names[body])
        amplitude = finite_number(entry.get("current"), f"Solid conductor '{name}': current")
        phase = np.radians(finite_number(entry.get("phase", 0.0) or 0.0, f"Solid conductor '{name}': phase"))
        terminals = entry.get("terminals")
        if terminals:
            t_in = _face_rows(model, terminals.get("in"), name, "in")
            t_out = _face_rows(model, terminals.get("out"), name, "out")
        else:
            t_in, t_out = _found_terminals(model, body, name)
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
        specs.append(SolidConductorSpec(name, body, amplitude * np.exp(1j * phase), t_in, t_out))
    return specs


def _face_rows(model: TetModel, faces: Any, name: str, side: str) -> np.ndarray:
    ids = np.asarray(faces or [], dtype=np.int64)
    if ids.size == 0 or ids.min() < 1 or ids.max() > len(model.faces):
        raise InvalidInput(
            f"Solid conductor '{name}': terminals.{side} needs face ids between 1 and {len(model.faces)}."
        )
    return ids - 1


def _found_terminals(model: TetModel, body: int, name: str) -> tuple[np.ndarray, np.ndarray]:
    rows = np.nonzero((model.face_inner_region == body) & (model.face_outer_region == -1))[0]
    patches = _connected_patches(model.faces[rows])
    if len(patches) != 2:
        where = (
            "does not reach the model's boundary"
            if not patches
            else f"meets the model's boundary in {len(patches)} separate patches"
        )
        raise InvalidInput(
            f"Solid conductor '{name}' {where}: give its terminals (the faces where the current enters and "
            "leaves, terminals: {in: [...], out: [...]}), or model it as an eddy-current body "
            "(a conductivity without a fed current)."
        )
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
    return [MassiveConductor(s.name, s.body, _unit_voltage_field(mesh, model, s), s.current) for s in specs]


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
