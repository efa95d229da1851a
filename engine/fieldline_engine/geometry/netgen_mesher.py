"""Netgen as the second mesher: advancing front on the OpenCascade model (STEP) or on a repaired
triangle surface (face descriptors carry which body lies on each side of every patch).

Netgen's OCC import always works in millimetres; coordinates are scaled to the model's unit here.
"""

from pathlib import Path

import numpy as np

from fieldline_engine.errors import EngineError
from fieldline_engine.geometry.gmsh_mesher import AttemptFailed, FailureDetails
from fieldline_engine.geometry.volume_mesh import VolumeMesh
from fieldline_engine.mesh.units import METRES_PER_UNIT

MESHER = "netgen"


# Netgen's parallel meshing spins extra threads; on a shared 2-core host it cost 1.15-2.2x the CPU and
# 1.2-2.6x the wall time of serial meshing for the same tetrahedra (3.6k-41k tets, one body and sixteen,
# measured under load, res21g note). Not measured with free cores, so larger hosts keep netgen's default.
SERIAL_MESHING_MAX_THREADS = 2


def _extract(ngmesh, scale: float, region_of_domain: dict[int, int], names: list[str]) -> VolumeMesh:
    xyz = np.asarray(ngmesh.Coordinates(), dtype=np.float64) * scale
    els = ngmesh.Elements3D().NumPy()
    tets = np.asarray(els["nodes"][:, :4], dtype=np.int64) - 1
    domains = np.asarray(els["index"], dtype=np.int64)
    regions = np.array([region_of_domain.get(int(d), 0) for d in range(domains.max() + 1)])[domains]
    surf = ngmesh.Elements2D().NumPy()
    faces = np.asarray(surf["nodes"][:, :3], dtype=np.int64) - 1
    fd_index = np.asarray(surf["index"], dtype=np.int64)
    return VolumeMesh(xyz, tets, regions, names, faces, fd_index, MESHER)


def _fail(exc: Exception) -> AttemptFailed:
    message = f"Netgen: {exc}"
    return AttemptFailed(message, FailureDetails(message))


def _boxes_overlap(a, b) -> bool:
    (a0, a1), (b0, b1) = a, b
    return all(a0[i] < b1[i] and b0[i] < a1[i] for i in range(3))


def mesh_cad(
    files: list[Path], unit: str, opts, bodies: list[tuple[str, np.ndarray, float]] | None
) -> VolumeMesh:
    """`bodies` are gmsh's (name, centre of mass, volume) per body, in model units, so regions get the
    same ids and names whichever mesher ran; without them Netgen's own solid names are used."""
    from netgen.occ import Glue, OCCGeometry

    mm_per_unit = METRES_PER_UNIT[unit] / 1e-3
    solids = []
    for path in files:
        solids += list(OCCGeometry(str(path)).shape.solids)
    if not solids:
        raise EngineError("meshing_failed", "Netgen found no solid bodies in the STEP file.")
    if bodies:
        # Match each solid to a body by centre of mass and volume (a centred post and its box share
        # a centre; their volumes differ).
        scale = max(1e-30, max(float(np.abs(c).max()) for _, c, _ in bodies))
        owner = []
        for s in solids:
            c = s.center
            centre = np.array([c.x, c.y, c.z]) / mm_per_unit
            volume = s.mass / mm_per_unit**3
            cost = [
                np.linalg.norm(centre - bc) / scale + abs(volume - bv) / max(bv, volume, 1e-300)
                for _, bc, bv in bodies
            ]
            owner.append(int(np.argmin(cost)))
        names = [b[0] for b in bodies]
    else:
        owner = list(range(len(solids)))
        names = [str(s.name or f"Body {k + 1}") for k, s in enumerate(solids)]
    # Overlaps go to the smaller body (as in the gmsh path): cut smaller bodies out of larger ones.
    order = sorted(range(len(solids)), key=lambda k: solids[k].mass)
    for i, small in enumerate(order):
        for big in order[i + 1 :]:
            if _boxes_overlap(solids[small].bounding_box, solids[big].bounding_box):
                solids[big] = solids[big] - solids[small]
    for k, s in enumerate(solids):
        s.mat(f"r{owner[k]}")
        s.maxh = opts.size_of(owner[k]) * mm_per_unit
    shape = Glue(solids) if len(solids) > 1 else solids[0]
    geo = OCCGeometry(shape)
    try:
        ngmesh = geo.GenerateMesh(
            maxh=opts.largest() * mm_per_unit,
            minh=opts.min_size * mm_per_unit,
            grading=opts.grading,
            curvaturesafety=opts.elements_per_circle / 6.0 if opts.curvature else 0.0,
            parallel_meshing=opts.threads > SERIAL_MESHING_MAX_THREADS,
        )
    except Exception as exc:  # noqa: BLE001 - Netgen raises "Meshing failed!" and the like
        raise _fail(exc) from exc
    if ngmesh.ne == 0:
        raise _fail(RuntimeError("no tetrahedra were generated"))
    region_of_domain = {}
    for d in np.unique(ngmesh.Elements3D().NumPy()["index"]).tolist():
        material = ngmesh.GetMaterial(d)
        region_of_domain[d] = int(material[1:]) if material.startswith("r") and material[1:].isdigit() else 0
    return _extract(ngmesh, 1.0 / mm_per_unit, region_of_domain, names)


def mesh_triangles(prepared, opts) -> VolumeMesh:
    import netgen.meshing as nm

    m = nm.Mesh(dim=3)
    m.AddPoints(np.ascontiguousarray(prepared.vertices, dtype=np.float64))
    fd_of_patch = {}
    for p in np.unique(prepared.patch):
        rows = np.nonzero(prepared.patch == p)[0]
        inside, outside = int(prepared.inside[rows[0]]), int(prepared.outside[rows[0]])
        fd = m.Add(nm.FaceDescriptor(surfnr=int(p), domin=inside + 1, domout=outside + 1, bc=int(p)))
        fd_of_patch[int(p)] = fd
        tris = np.ascontiguousarray(prepared.faces[rows], dtype=np.int32)
        m.AddElements(dim=2, index=fd, data=tris, base=0)
    for r in range(len(prepared.body_names)):
        m.SetMaterial(r + 1, f"r{r}")
    if opts.body_max_sizes:
        m.SetMaxHDomain([opts.size_of(r) for r in range(len(prepared.body_names))])
    try:
        # Netgen honours maxh loosely on triangle input (notes §1.1): ask for a little less.
        m.GenerateVolumeMesh(maxh=opts.largest() / 1.2, grading=opts.grading)
    except Exception as exc:  # noqa: BLE001
        raise _fail(exc) from exc
    if m.ne == 0:
        raise _fail(RuntimeError("no tetrahedra were generated"))
    els = m.Elements3D().NumPy()
    region_of_domain = {d: d - 1 for d in np.unique(els["index"]).tolist()}
    mesh = _extract(m, 1.0, region_of_domain, prepared.body_names)
    patch_of_fd = {fd: p for p, fd in fd_of_patch.items()}
    mesh.face_patches = np.array([patch_of_fd[int(i)] for i in mesh.face_patches])
    return mesh
