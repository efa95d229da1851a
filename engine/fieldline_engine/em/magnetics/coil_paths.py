"""Where a coil's current goes: a unit direction field in its body and the cross-section it fills.

A stranded winding carries N·I through every cross-section of its body. Three kinds of body:
- closed: a ring around one hole (a solenoid's or a racetrack's winding). The current circulates around
  the hole. The path is the harmonic field of a potential that rises by 1 once around the hole: on every
  tetrahedron the angle about the hole's axis, unwrapped on that tetrahedron (the branch cut is where the
  unwrapping jumps, nowhere in particular), gives a gradient G; a continuous correction ∇ψ makes G + ∇ψ
  divergence-free. The axis is the coil's `axis` through the body's centroid, else the principal axis of
  the body that the body goes around.
- wraps: a winding shell around another body (a toroid's core). The potential rises by 1 once around the
  core's cross-section: the angle about the core's centre line (the circle at the core's mean radius about
  its ring axis). Its G needs no harmonic correction: the shell's walls go all round, so the L2-nearest
  divergence-free field with no flow through them (_divergence_free, which every path ends with) is the
  same for G and for G + ∇ψ — (s, ∇ψ) = −(div s, ψ) = 0 for every such s (to round-off: 2e-16 on the toroid
  bench, whose job skips that potential solve). G/|G| is its direction, ∫|G| dV its mean section.
- open: a body ending on terminal faces; the potential is 1 on `in` and 0 on `out` (current flows in→out).
  The terminals lie where the current crosses the model's boundary (an outer face or a flux-tangent
  symmetry plane); a flux-normal plane the body touches is a wall like any other.

Closed and open coils are assumed to have a constant cross-section (a winding of constant build), so the
current density is uniform, N·I/S along the path, with S = ∫|t| dV / (rise of the potential) — the coarea
formula gives the mean cross-section exactly. A wrapping shell's sections differ (a toroid's inner wall is
narrower than its outer one): there N·I crosses every section and the density follows the harmonic field,
J = N·I · t / ∫|t|² dV. A solid conductor at DC (`conduction`) follows the harmonic field too: it is the
conduction solution in a body of one conductivity (a ring's current crowds to its inner side as 1/r).
"""

from dataclasses import dataclass

import ngsolve as ng
import numpy as np

from fieldline_engine.em.magnetics.solver import exact_order
from fieldline_engine.errors import InvalidInput


@dataclass
class CoilPath:
    direction: ng.CoefficientFunction  # unit vector in the coil's body, 0 elsewhere
    turn_density: ng.CoefficientFunction  # J per ampere-turn: the direction over the section it fills (1/m²)
    section_m2: float  # the mean cross-section S (m²)
    kind: str  # "closed" | "wraps" | "open"
    axis: tuple[float, float, float] | None = None  # closed and wraps: the axis the path turns about
    # ∫|t|² dV of the harmonic field t of a unit rise (closed, open): σ times it is the body's DC conductance;
    # integrated for solid conductors (`conduction`) only, the one use (0.0 for windings)
    unit_rise_energy: float = 0.0


def _volume_elements(mesh: ng.Mesh, body: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vertex coordinates, the body's tetrahedra (0-based vertex ids) and their NGSolve element numbers."""
    points = np.asarray(mesh.ngmesh.Coordinates())
    els = mesh.ngmesh.Elements3D().NumPy()
    nodes = np.asarray(els["nodes"])[:, :4].astype(np.int64) - 1
    index = np.asarray(els["index"]).astype(np.int64)
    materials = mesh.GetMaterials()
    wanted = [i + 1 for i, m in enumerate(materials) if m == f"body{body}"]
    numbers = np.nonzero(np.isin(index, wanted))[0]
    if not len(numbers):
        raise InvalidInput(f"Body {body} has no elements.")
    return points, nodes[numbers], numbers


def _tet_geometry(points: np.ndarray, tets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Volumes, centroids and the gradients of the four barycentric coordinates (nt, 4, 3)."""
    p = points[tets]
    edges = p[:, 1:] - p[:, :1]  # (nt, 3, 3): rows are x1−x0, x2−x0, x3−x0
    inv = np.linalg.inv(edges)  # columns are ∇λ1, ∇λ2, ∇λ3
    grads = np.empty((len(tets), 4, 3))
    grads[:, 1:] = np.transpose(inv, (0, 2, 1))
    grads[:, 0] = -grads[:, 1:].sum(axis=1)
    volumes = np.abs(np.linalg.det(edges)) / 6.0
    return volumes, p.mean(axis=1), grads


def _unwrapped_gradient(
    angle: np.ndarray, tets: np.ndarray, grads: np.ndarray
) -> tuple[np.ndarray, np.ndarray, float]:
    """Per tetrahedron, ∇ of the P1 interpolant of the angle unwrapped on that tetrahedron, over 2π; ∇ of a
    ramp rising from 0 to 1 as the angle goes from −π/2 to π/2 (it measures the flux through the sections
    of that half turn); and the largest angle any one tetrahedron spans (near π the line the angle turns
    about passes through it)."""
    a = angle[tets]
    a = a[:, :1] + (a - a[:, :1] + np.pi) % (2 * np.pi) - np.pi
    spread = float(np.max(a.max(axis=1) - a.min(axis=1))) if len(a) else 0.0
    ramp = np.clip(a / np.pi + 0.5, 0.0, 1.0)
    return (
        np.einsum("ek,ekd->ed", a, grads) / (2 * np.pi),
        np.einsum("ek,ekd->ed", ramp, grads),
        spread,
    )


def _angle_about(points: np.ndarray, centre: np.ndarray, axis: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Angle about the line (centre, axis), right-handed; and the distance from the line."""
    e1 = np.cross(axis, [1.0, 0.0, 0.0])
    if np.linalg.norm(e1) < 0.5:
        e1 = np.cross(axis, [0.0, 1.0, 0.0])
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(axis, e1)
    d = points - centre
    x, y = d @ e1, d @ e2
    return np.arctan2(y, x), np.hypot(x, y)


def _goes_around(points, tets, grads, centre, axis) -> tuple[bool, tuple[np.ndarray, np.ndarray]]:
    """Whether the body is a ring around the line (centre, axis): no tetrahedron straddles the line and the
    body covers every direction about it. Returns the flag and the per-tetrahedron angle and ramp gradients."""
    used = np.unique(tets)
    angle, _ = _angle_about(points[used], centre, axis)
    full = np.zeros(len(points))
    full[used] = angle
    g, ramp, spread = _unwrapped_gradient(full, tets, grads)
    covered = np.sort(angle)
    gaps = np.diff(np.concatenate([covered, covered[:1] + 2 * np.pi]))
    return bool(spread < np.pi / 2 and gaps.max() < np.pi / 2), (g, ramp)


def _principal_axes(volumes: np.ndarray, centroids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    centre = (volumes[:, None] * centroids).sum(axis=0) / volumes.sum()
    d = centroids - centre
    second = np.einsum("e,ei,ej->ij", volumes, d, d)
    inertia = np.trace(second) * np.eye(3) - second
    values, vectors = np.linalg.eigh(inertia)
    return centre, vectors[:, np.argsort(values)[::-1]].T  # largest moment first


def _positive(axis: np.ndarray) -> np.ndarray:
    return axis if axis[np.argmax(np.abs(axis))] > 0 else -axis


WINDING_ADVICE = "Give the winding `terminals` (the faces it starts and ends on), or `wraps` (the body it is wound around)."


WRAPS_ADVICE = (
    "A winding that wraps a body needs that body whole: a ring core that goes all the way round its axis, "
    "because the current's path is taken about the core's centre circle. A core cut by a symmetry plane (a "
    "half or quarter toroid) is not supported: model the whole ring core with its winding (air is added "
    "around a bare device), or give the winding `terminals` if it really ends on faces."
)


def ring_axis(
    mesh: ng.Mesh, body: int, axis: np.ndarray | None, what: str, advice: str = WINDING_ADVICE
) -> tuple[np.ndarray, np.ndarray]:
    """The centre and direction of the hole a ring-shaped body goes around; `advice` ends the refusal of a
    body that is not a ring."""
    points, tets, _ = _volume_elements(mesh, body)
    volumes, centroids, grads = _tet_geometry(points, tets)
    centre, candidates = _principal_axes(volumes, centroids)
    if axis is not None:
        direction = np.asarray(axis, dtype=float)
        if not np.linalg.norm(direction) > 0:
            raise InvalidInput(f"{what}: the axis must not be [0, 0, 0].")
        direction = direction / np.linalg.norm(direction)
        if not _goes_around(points, tets, grads, centre, direction)[0]:
            raise InvalidInput(
                f"{what}: the body does not go around the axis {list(np.round(direction, 4))} through its "
                f"centroid, so it is not a ring around a hole about that axis. {advice}"
            )
        return centre, direction
    for candidate in candidates:
        if _goes_around(points, tets, grads, centre, candidate)[0]:
            return centre, _positive(candidate)
    raise InvalidInput(
        f"{what}: the body is not a ring around a hole, so the current's path is not defined. {advice}"
    )


def _element_vectors(mesh: ng.Mesh, numbers: np.ndarray, values: np.ndarray) -> ng.CoefficientFunction:
    """A piecewise-constant vector field from per-element values (0 outside those elements)."""
    l2 = ng.L2(mesh, order=0)
    components = []
    for d in range(3):
        gf = ng.GridFunction(l2)
        column = np.zeros(mesh.ne)
        column[numbers] = values[:, d]
        gf.vec.FV().NumPy()[:] = column
        components.append(gf)
    return ng.CF(tuple(components))


def _harmonic_path(mesh: ng.Mesh, body: int, g: ng.CoefficientFunction) -> ng.CoefficientFunction:
    """G + ∇ψ: the element-wise gradient field G made divergence-free in the body by a continuous ψ
    (∫∇ψ·∇v = −∫G·∇v, ψ fixed at one vertex)."""
    region = mesh.Materials(f"body{body}")
    h1 = ng.Compress(ng.H1(mesh, order=1, definedon=region))
    u, v = h1.TnT()
    a = ng.BilinearForm(ng.grad(u) * ng.grad(v) * ng.dx(definedon=region), symmetric=True).Assemble()
    f = ng.LinearForm(-g * ng.grad(v) * ng.dx(definedon=region)).Assemble()
    free = ng.BitArray(h1.FreeDofs())
    first = next(i for i in range(h1.ndof) if free[i])
    free.Clear(first)
    psi = ng.GridFunction(h1)
    psi.vec.data = a.mat.Inverse(free, inverse="sparsecholesky") * f.vec
    return g + ng.grad(psi)


def _body_walls(mesh: ng.Mesh, body: int, open_labels: tuple[str, ...]) -> ng.Region:
    """The faces bounding the body, except its terminal faces: no current crosses them. A flux-normal
    symmetry plane the body touches is one of its walls: mirror symmetry that leaves B normal to a plane
    leaves the current tangent to it (a solenoid halved across its axis, a bar halved along its length)."""
    ngmesh = mesh.ngmesh
    names = mesh.GetBoundaries()
    domain = mesh.GetMaterials().index(f"body{body}") + 1
    mask = ng.BitArray(len(names))
    mask.Clear()
    for i, name in enumerate(names):
        fd = ngmesh.FaceDescriptor(i + 1)
        if domain in (fd.domin, fd.domout) and name not in open_labels:
            mask.Set(i)
    return ng.Region(mesh, ng.BND, mask)


def _divergence_free(
    mesh: ng.Mesh, body: int, target: ng.CoefficientFunction, order: int, open_labels: tuple[str, ...]
) -> ng.GridFunction:
    """The L2-nearest field to `target` in the body that is exactly divergence-free (Raviart–Thomas, normal
    component continuous) with no flow through the body's walls: the same current then crosses every
    section, and the source is orthogonal to every gradient of the curl-curl space (no projection needed)."""
    region = mesh.Materials(f"body{body}")
    walls = _body_walls(mesh, body, open_labels)
    hdiv = ng.Compress(ng.HDiv(mesh, order=order, RT=True, definedon=region, dirichlet=walls))
    l2 = ng.Compress(ng.L2(mesh, order=order, definedon=region))
    fes = hdiv * l2
    (j, p), (s, q) = fes.TnT()
    dx = ng.dx(definedon=region)
    a = ng.BilinearForm(fes, symmetric=True)
    a += (j * s + p * ng.div(s) + q * ng.div(j)) * dx
    f = ng.LinearForm(target * s * dx)
    a.Assemble()
    f.Assemble()
    free = ng.BitArray(fes.FreeDofs())
    if not open_labels:
        # Walls all round: the divergence constraints sum to 0 = 0, so one is dropped (the constant multiplier).
        free.Clear(hdiv.ndof)
    solution = ng.GridFunction(fes)
    solution.vec.data = a.mat.Inverse(free, inverse="umfpack") * f.vec
    out = ng.GridFunction(hdiv)
    out.vec.data = solution.components[0].vec
    return out


def _finish(
    mesh: ng.Mesh,
    body: int,
    t: ng.CoefficientFunction,
    kind: str,
    jump: ng.CoefficientFunction,
    order: int,
    axis=None,
    open_labels: tuple[str, ...] = (),
    conduction: bool = False,
) -> CoilPath:
    """`jump`: the element-wise gradient of a potential that rises by 1 along the winding (continuous but
    across one cut, or from `out` to `in`): for a divergence-free field F, ∫ F·jump dV is exactly its flux
    through a section, which scales the density to one ampere-turn."""
    region = mesh.Materials(f"body{body}")
    inside = mesh.MaterialCF({f"body{body}": 1.0}, default=0.0)
    direction = inside * t / (ng.Norm(t) + 1e-30)
    target = t if kind == "wraps" or conduction else direction
    field = _divergence_free(mesh, body, target, 0, open_labels)
    dx = ng.dx(definedon=region)
    # Exact rules on straight elements (em/magnetics/solver.py exact_order): the lowest-order Raviart–Thomas
    # field (degree 1) against jump (degree 0, or 1 for an open coil's −∇φ); the section's integrand is
    # constant per element, except an open coil's (the direction of a linear field).
    flux = ng.Integrate(ng.InnerProduct(field, jump), mesh, order=exact_order(mesh, 2), definedon=region)
    if not flux > 0:
        raise InvalidInput(f"Body {body}: no current path through the winding was found.")
    section_rule = 5 if kind == "open" else exact_order(mesh, 0)
    section = ng.Integrate(ng.InnerProduct(direction, jump), mesh, order=section_rule, definedon=region)
    return CoilPath(
        direction,
        inside * field / flux,
        float(section),
        kind,
        None if axis is None else tuple(map(float, axis)),
        float(ng.Integrate(ng.InnerProduct(t, t) * dx, mesh)) if conduction else 0.0,
    )


def ring_cut(
    mesh: ng.Mesh, body: int, axis: np.ndarray | None, what: str, advice: str = WINDING_ADVICE
) -> tuple[ng.CoefficientFunction, np.ndarray]:
    """The element-wise gradient G of a potential that rises by 1 once around a ring's hole (the angle
    about its axis over 2π, continuous but across one cut), and the axis. G is curl-free and tangentially
    continuous (a lowest-order Nédélec field), but not a gradient: its circulation round the hole is 1."""
    centre, direction = ring_axis(mesh, body, axis, what, advice)
    points, tets, numbers = _volume_elements(mesh, body)
    _, _, grads = _tet_geometry(points, tets)
    _, (g, _) = _goes_around(points, tets, grads, centre, direction)
    return _element_vectors(mesh, numbers, g), direction


def closed_path(
    mesh: ng.Mesh,
    body: int,
    axis: np.ndarray | None,
    what: str,
    order: int = 2,
    conduction: bool = False,
    advice: str = WINDING_ADVICE,
) -> CoilPath:
    jump, direction = ring_cut(mesh, body, axis, what, advice)
    path = _harmonic_path(mesh, body, jump)
    return _finish(mesh, body, path, "closed", jump, order, direction, conduction=conduction)


def wrapping_path(
    mesh: ng.Mesh, body: int, core: int, axis: np.ndarray | None, what: str, order: int = 2
) -> CoilPath:
    """The current circulates around the core's cross-section so that the core's flux turns right-handed
    about the core's ring axis."""
    centre, direction = ring_axis(mesh, core, axis, f"{what} (the body it wraps)", WRAPS_ADVICE)
    cpoints, ctets, _ = _volume_elements(mesh, core)
    cvol, ccentroids, _ = _tet_geometry(cpoints, ctets)
    _, rho = _angle_about(ccentroids, centre, direction)
    zeta = (ccentroids - centre) @ direction
    rho0 = float((cvol * rho).sum() / cvol.sum())
    zeta0 = float((cvol * zeta).sum() / cvol.sum())
    points, tets, numbers = _volume_elements(mesh, body)
    _, _, grads = _tet_geometry(points, tets)
    _, r = _angle_about(points, centre, direction)
    z = (points - centre) @ direction
    # Increasing along +axis on the inner wall (r < rho0): there the current must flow along the axis.
    angle = np.arctan2(z - zeta0, rho0 - r)
    g, _, spread = _unwrapped_gradient(angle, tets, grads)
    if spread >= np.pi / 2:
        raise InvalidInput(f"{what}: the winding does not go around the body it wraps without crossing it.")
    jump = _element_vectors(mesh, numbers, g)
    return _finish(mesh, body, jump, "wraps", jump, order, direction)


def open_path(
    mesh: ng.Mesh,
    body: int,
    in_label: str,
    out_label: str,
    what: str,
    order: int = 2,
    conduction: bool = False,
) -> CoilPath:
    """Potential 1 on the `in` faces and 0 on `out` in the body alone; the current flows down the potential."""
    region = mesh.Materials(f"body{body}")
    h1 = ng.Compress(ng.H1(mesh, order=2, definedon=region, dirichlet=f"{in_label}|{out_label}"))
    u, v = h1.TnT()
    a = ng.BilinearForm(ng.grad(u) * ng.grad(v) * ng.dx(definedon=region), symmetric=True).Assemble()
    phi = ng.GridFunction(h1)
    phi.Set(ng.CF(1.0), definedon=mesh.Boundaries(in_label))
    if not np.any(phi.vec.FV().NumPy()):
        raise InvalidInput(f"{what}: the `in` terminal faces do not touch the coil's body.")
    r = -a.mat * phi.vec
    phi.vec.data += a.mat.Inverse(h1.FreeDofs(), inverse="sparsecholesky") * r
    t = -ng.grad(phi)
    if not ng.Integrate(ng.Norm(t) * ng.dx(definedon=region), mesh) > 0:
        raise InvalidInput(f"{what}: no current flows from the `in` to the `out` terminal faces.")
    return _finish(mesh, body, t, "open", t, order, None, (in_label, out_label), conduction)
