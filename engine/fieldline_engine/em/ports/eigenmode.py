"""Port modes by a 2D eigen solve on the port face itself (cross-sections without a closed form).

The port's filling is homogeneous (one material; see job.port_filling), so the transverse problem
splits into scalar ones on the face, solved with a surface H1 space on the 3D mesh's port triangles
(the mode then lives on exactly the discretisation the 3D field sees):
- TE: −∇²ψ = k_c² ψ, ∂ψ/∂n = 0 on the conductors (ψ ~ H_z), E_t = n × ∇ψ;
- TM: −∇²φ = k_c² φ, φ = 0 on the conductors (φ ~ E_z), E_t = −∇φ;
- TEM (two or more conductor loops): ∇²φ = 0, φ = 1 on the inner loop(s), 0 on the outer, E_t = −∇φ.
β and the wave impedance follow from k_c as for the analytic modes.
A port cut by symmetry planes (PMC faces, `pmc`): the perimeter edges on those faces are not conductors.
There E_t·t is free, so φ (TEM, TM) is natural and ψ (TE, ~H_z, tangential to the wall) is 0; the
conductors are the runs of perimeter edges between them (a coax wedge: the inner and the outer arc).
"""

import ngsolve as ng
import numpy as np

from fieldline_engine.core.sparse import dense_block
from fieldline_engine.em.ports.boundary_elements import edges_of, elements_named, triangles_named
from fieldline_engine.em.ports.modes import ModeShape
from fieldline_engine.em.ports.port_face import PortFace, _boundary_loops
from fieldline_engine.errors import InvalidInput

# Which computed mode a user-facing name selects (index in order of rising cutoff).
_SELECT = {"TE10": ("TE", 0), "TE20": ("TE", 1), "TM01": ("TM", 0), "TEM": ("TEM", 0)}


def numeric_mode(
    mesh: ng.Mesh,
    face: PortFace,
    mode: str,
    eps_r: complex = 1.0,
    mu_r: complex = 1.0,
    order: int = 2,
    pec: str | None = None,
    pmc: str | None = None,
    walls: set[tuple[int, int]] | None = None,
    triangles: np.ndarray | None = None,
) -> ModeShape:
    """`pmc`: labels ("a|b") of symmetry-plane (PMC) faces that may cut the port's perimeter; `walls`:
    their edges when the caller has them already, `triangles`: the port face's (else both are read
    from the mesh)."""
    family, index = _SELECT[mode]
    label = face.label
    fes = ng.H1(mesh, order=order + 1, definedon=mesh.Boundaries(label))
    if walls is None:
        walls = wall_edges(mesh, pmc) if pmc else set()
    if triangles is None:
        triangles = triangles_named(mesh, {label})
    loops, open_walls = _conductor_runs(_boundary_loops(triangles), walls)
    port_elements = elements_named(mesh, {label})
    u, v = fes.TnT()
    stiff = ng.BilinearForm(fes)
    stiff += ng.grad(u).Trace() * ng.grad(v).Trace() * ng.ds(label)
    stiff.Assemble()
    gf = ng.GridFunction(fes)
    n = ng.specialcf.normal(3)

    if family == "TEM":
        if len(loops) < 2:
            raise InvalidInput(
                f"Wave port {label}: a TEM mode needs two conductors; this port face has a single boundary."
            )
        outer = max(range(len(loops)), key=lambda i: _extent(mesh, loops[i][0]))
        fixed, values = _loop_dofs(mesh, fes, loops, lambda i: 0.0 if i == outer else 1.0, port_elements)
        used = _used_dofs(fes, port_elements)
        a = dense_block(stiff.mat, used)
        is_free = ~np.isin(used, fixed)
        x = np.zeros(fes.ndof)
        x[fixed] = values
        fixed_at = np.searchsorted(used, fixed)  # the loops' DOFs are the face's too
        rhs = -(a[is_free][:, fixed_at] @ values)
        x[used[is_free]] = np.linalg.solve(a[np.ix_(is_free, is_free)], rhs)
        gf.vec.FV().NumPy()[:] = x
        shape_cf = -ng.grad(gf).Trace()
        kc = 0.0
    else:
        used = _used_dofs(fes, port_elements)
        if family == "TM":
            fixed, _ = _loop_dofs(mesh, fes, loops, lambda _i: 0.0, port_elements)
            free = np.setdiff1d(used, fixed)
        elif open_walls:  # TE: H_z is tangential to a PMC wall, so ψ = 0 there
            fixed, _ = _loop_dofs(mesh, fes, open_walls, lambda _i: 0.0, port_elements)
            free = np.setdiff1d(used, fixed)
        else:
            free = used
        mass = ng.BilinearForm(fes)  # TE/TM only: the TEM potential needs no mass matrix
        mass += u * v * ng.ds(label)
        mass.Assemble()
        a = dense_block(stiff.mat, free)
        b = dense_block(mass.mat, free)
        import scipy.linalg as sla  # here only: importing it costs ~0.1–0.3 CPU s, TEM does not need it

        lam, vecs = sla.eigh(a, b)
        keep = np.nonzero(lam > 1e-8 * max(1.0, float(np.max(np.abs(lam)))))[0]
        if index >= len(keep):
            raise InvalidInput(
                f"Wave port {label}: the port face has no {mode} mode on this mesh; refine the port."
            )
        pick = keep[index]
        x = np.zeros(fes.ndof)
        x[free] = vecs[:, pick]
        gf.vec.FV().NumPy()[:] = x
        kc = float(np.sqrt(lam[pick]))
        shape_cf = ng.Cross(n, ng.grad(gf).Trace()) if family == "TE" else -ng.grad(gf).Trace()
    shape_cf = shape_cf * _polarity(mesh, label, shape_cf, face)
    name = {"TE": f"TE (mode {index + 1})", "TM": f"TM (mode {index + 1})", "TEM": "TEM"}[family]
    return ModeShape(
        name,
        family,
        kc,
        None,
        face,
        note=f"{mode} computed by a 2D eigen solve on the port face ({face.shape} cross-section)",
        source="2d eigenmode",
        numeric_cf=shape_cf,
    )


def _used_dofs(fes: ng.FESpace, port_elements: list[ng.ElementId]) -> np.ndarray:
    """DOFs that belong to the port face (the surface space numbers all mesh nodes)."""
    dofs = [d for el in port_elements for d in fes.GetDofNrs(el) if d >= 0]
    return np.unique(np.asarray(dofs, dtype=np.int64))


def wall_edges(mesh: ng.Mesh, labels: str) -> set[tuple[int, int]]:
    """Edges (sorted vertex-number pairs) of the boundary faces named in `labels` ("a|b")."""
    return edges_of(triangles_named(mesh, set(labels.split("|"))))


Run = tuple[np.ndarray, bool]  # perimeter vertices in order; closed (the last joins the first) or open


def _conductor_runs(loops: list[np.ndarray], walls: set[tuple[int, int]]) -> tuple[list[Run], list[Run]]:
    """Splits the perimeter loops at the edges on PMC walls: (conductor runs, wall runs). Without walls
    every loop is one closed conductor run (the port's whole perimeter is metal)."""
    conductors: list[Run] = []
    on_walls: list[Run] = []
    for loop in loops:
        n = len(loop)
        is_wall = [tuple(sorted((int(loop[k]), int(loop[(k + 1) % n])))) in walls for k in range(n)]
        if not any(is_wall):
            conductors.append((loop, True))
            continue
        if all(is_wall):
            on_walls.append((loop, True))
            continue
        start = next(k for k in range(n) if is_wall[k - 1] != is_wall[k])
        k = start
        while True:
            kind, run = is_wall[k], [int(loop[k])]
            while True:
                run.append(int(loop[(k + 1) % n]))
                k = (k + 1) % n
                if k == start or is_wall[k] != kind:
                    break
            (on_walls if kind else conductors).append((np.asarray(run), False))
            if k == start:
                break
    return conductors, on_walls


def _extent(mesh: ng.Mesh, loop: np.ndarray) -> float:
    pts = np.array([mesh.vertices[int(i)].point for i in loop])
    return float(np.ptp(pts, axis=0).max())


def _loop_dofs(
    mesh: ng.Mesh, fes: ng.FESpace, loops: list[Run], value_of, port_elements: list[ng.ElementId]
) -> tuple[np.ndarray, np.ndarray]:
    """DOFs on the perimeter runs (their vertices and edges) with a value per run."""
    edge_of = {}  # the port face's edges only (all of the mesh's would be slow on a big model)
    for eid in port_elements:
        for e in mesh[eid].edges:
            edge_of[tuple(sorted(v.nr for v in mesh[e].vertices))] = e.nr
    dofs: dict[int, float] = {}
    for i, (loop, closed) in enumerate(loops):
        val = value_of(i)
        for k, vnr in enumerate(loop):
            for d in fes.GetDofNrs(ng.NodeId(ng.VERTEX, int(vnr))):
                dofs[d] = val
            if not closed and k == len(loop) - 1:
                break
            key = tuple(sorted((int(vnr), int(loop[(k + 1) % len(loop)]))))
            if key in edge_of:
                for d in fes.GetDofNrs(ng.NodeId(ng.EDGE, edge_of[key])):
                    dofs[d] = 0.0  # higher-order edge DOFs of a constant trace are 0
    idx = np.array(sorted(dofs), dtype=np.int64)
    vertex_vals = np.array([dofs[d] for d in idx])
    return idx, vertex_vals


def _polarity(mesh: ng.Mesh, label: str, cf: ng.CoefficientFunction, face: PortFace) -> float:
    """Signs the mode so its mean field points along the face's positive in-plane axes (as the
    analytic modes do), making ports on one straight guide share a polarity."""
    mean = np.array(ng.Integrate(cf, mesh, ng.BND, definedon=mesh.Boundaries(label)))
    along_v, along_u = float(mean @ face.v_axis), float(mean @ face.u_axis)
    ref = along_v if abs(along_v) >= abs(along_u) else along_u
    return -1.0 if ref < 0 else 1.0
