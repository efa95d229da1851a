"""An air sphere and a PML shell meshed around a bare model (a radiator or scatterer in open space).

Around the centre c of the model's bounding box, with R = the model's bounding-sphere radius and
λ the wavelength at the job's highest frequency:
  air (inner)  from the model's outside to r_ff  = R + λ/8 (the sphere r_ff is a closed surface in air,
               `farfield_surface`, for near-to-far-field transforms),
  air (outer)  from r_ff to r_pml = R + λ/4,
  PML          from r_pml to r_pml + pmlThickness, PEC behind it.
gmsh meshes the three volumes against the model's outside triangles, kept exactly as they are (they
are discrete surfaces), so the model's vertices, tetrahedra and face ids are unchanged: the merged
model lists the model first and appends the shell (new vertices, tetrahedra, bodies and faces).

A wave port on the model's outside is backed by PEC on the air side (as at the end of a feed line):
the shell is cut loose from the port's vertices (they are duplicated for the shell's tetrahedra), so
every outside face touching a port vertex must be a port or PEC, where the cut changes nothing.
"""

from dataclasses import dataclass, field

import numpy as np

from fieldline_engine.em.fullwave.pml import RadialPml
from fieldline_engine.errors import EngineError, InvalidInput
from fieldline_engine.mesh.tet_model import TetModel

FARFIELD_LABEL = "farfield_surface"
PML_INNER_LABEL = "pml_inner"
PML_OUTER_LABEL = "pml_outer"  # PEC behind the PML
PORT_BACKING_LABEL = "port_backing"  # PEC on the air side of a port on the model's outside
SHELL_REGION_NAMES = ["air shell (inner)", "air shell (outer)", "PML shell"]
# Shell element size per element order (λ / n). λ/6 at order 2 left the PEC-sphere RCS 0.9 dB low
# (the air next to the model is too coarse); λ/10 gives 0.15 dB.
ELEMENTS_PER_WAVELENGTH = {1: 16.0, 2: 10.0, 3: 6.0}  # near the model, up to the far-field sphere
ELEMENTS_PER_WAVELENGTH_FAR = {1: 10.0, 2: 6.0, 3: 4.0}  # grading out to the PML
ELEMENTS_ACROSS_PML = 2.5


@dataclass
class AirShell:
    model: TetModel  # the uploaded model followed by the shell
    labels: np.ndarray  # face labels of the merged model (the model's rows first, unchanged)
    pml: RadialPml
    model_radius: float
    farfield_radius: float
    mesh_size: float
    added_vertices: int
    added_tetrahedra: int
    open_faces: int  # model faces that became interior faces towards the shell's air
    port_backed_faces: int
    notes: list[str] = field(default_factory=list)

    def describe(self) -> dict[str, object]:
        return {
            "added": True,
            "centre_m": [float(x) for x in self.pml.centre],
            "model_radius_m": self.model_radius,
            "farfield_radius_m": self.farfield_radius,
            "pml_inner_radius_m": self.pml.r_inner,
            "pml_outer_radius_m": self.pml.r_inner + self.pml.thickness,
            "thickness_m": self.pml.thickness,
            "mesh_size_m": self.mesh_size,
            "added_vertices": self.added_vertices,
            "added_tetrahedra": self.added_tetrahedra,
            "open_model_faces": self.open_faces,
            "port_backed_faces": self.port_backed_faces,
            "fields_returned": "model vertices only",
        }


def _sphere_triangles(gmsh, centre: np.ndarray, radius: float, h: float) -> tuple[np.ndarray, np.ndarray]:
    gmsh.model.add("sphere")
    gmsh.model.occ.addSphere(*centre, radius)
    gmsh.model.occ.synchronize()
    gmsh.option.setNumber("Mesh.MeshSizeMax", h)
    gmsh.option.setNumber("Mesh.MeshSizeMin", 0.5 * h)
    gmsh.option.setNumber("Mesh.MeshSizeExtendFromBoundary", 0)  # else the seam curve's size wins
    gmsh.model.mesh.generate(2)
    gmsh.option.setNumber("Mesh.MeshSizeExtendFromBoundary", 1)
    tags, xyz, _ = gmsh.model.mesh.getNodes()
    _, nodes = gmsh.model.mesh.getElementsByType(2)
    index = np.zeros(int(tags.max()) + 1, dtype=np.int64)
    index[tags.astype(np.int64)] = np.arange(len(tags))
    tris = index[nodes.astype(np.int64)].reshape(-1, 3)
    gmsh.model.remove()
    return xyz.reshape(-1, 3), tris


def _face_keys(tris: np.ndarray) -> set[tuple[int, int, int]]:
    return {tuple(t) for t in np.sort(tris, axis=1).tolist()}


def _orient_outward(vertices: np.ndarray, tris: np.ndarray, centre: np.ndarray) -> np.ndarray:
    a, b, c = (vertices[tris[:, i]] for i in range(3))
    inward = np.einsum("ij,ij->i", np.cross(b - a, c - a), a - centre) < 0
    out = tris.copy()
    out[inward, 1], out[inward, 2] = tris[inward, 2], tris[inward, 1]
    return out


def _positive(vertices: np.ndarray, tets: np.ndarray) -> np.ndarray:
    a, b, c, d = (vertices[tets[:, i]] for i in range(4))
    neg = np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a) < 0
    out = tets.copy()
    out[neg, 2], out[neg, 3] = tets[neg, 3], tets[neg, 2]
    return out


def _mesh_shell(model: TetModel, outside: np.ndarray, centre, radii, sizes):
    """gmsh tetrahedra of the three shell volumes, in merged vertex numbering, and the sphere triangles."""
    from fieldline_engine.geometry.gmsh_mesher import gmsh_session

    nv = model.nv
    with gmsh_session() as gmsh:
        spheres = [_sphere_triangles(gmsh, centre, r, h) for r, h in zip(radii, sizes, strict=True)]
        gmsh.model.add("air_shell")
        gmsh.option.setNumber("Mesh.MeshSizeMin", 0.0)
        gmsh.option.setNumber("Mesh.MeshSizeMax", max(sizes))
        surf = gmsh.model.addDiscreteEntity(2)
        # gmsh node tags: 1..n for the model's outside vertices, then the spheres', then new ones
        used, local = np.unique(model.faces[outside], return_inverse=True)
        n_used = len(used)
        gmsh.model.mesh.addNodes(2, surf, list(range(1, n_used + 1)), model.vertices[used].ravel().tolist())
        gmsh.model.mesh.addElementsByType(surf, 2, [], (local.reshape(-1) + 1).tolist())
        loops = [gmsh.model.geo.addSurfaceLoop([surf])]
        next_tag = n_used + 1
        for xyz, tris in spheres:
            s = gmsh.model.addDiscreteEntity(2)
            tags = np.arange(next_tag, next_tag + len(xyz))
            gmsh.model.mesh.addNodes(2, s, tags.tolist(), xyz.ravel().tolist())
            gmsh.model.mesh.addElementsByType(s, 2, [], tags[tris].ravel().tolist())
            next_tag += len(xyz)
            loops.append(gmsh.model.geo.addSurfaceLoop([s]))
        volumes = [gmsh.model.geo.addVolume([loops[i + 1], loops[i]]) for i in range(3)]
        gmsh.model.geo.synchronize()
        try:
            gmsh.model.mesh.generate(3)
        except Exception as exc:  # gmsh raises a bare Exception carrying its message
            raise EngineError(
                "meshing_failed",
                f"Could not mesh the air shell around the model ({exc}). The model's outside must be a "
                "closed, non-self-intersecting surface.",
            ) from exc
        tags, xyz, _ = gmsh.model.mesh.getNodes()
        tags = tags.astype(np.int64)
        new = tags > n_used
        index = np.full(int(tags.max()) + 1, -1, dtype=np.int64)
        index[tags[~new]] = used[tags[~new] - 1]
        index[tags[new]] = nv + np.arange(int(new.sum()))
        new_xyz = xyz.reshape(-1, 3)[new]
        tets = []
        for v in volumes:
            _, nodes = gmsh.model.mesh.getElementsByType(4, v)
            tets.append(index[nodes.astype(np.int64)].reshape(-1, 4))
        offset = n_used
        sphere_tris = []
        for xyz_s, tris in spheres:
            sphere_tris.append(index[tris + offset + 1])
            offset += len(xyz_s)
    return new_xyz, tets, sphere_tris


def _check_conforming(tets: np.ndarray) -> None:
    """Every triangle of the merged mesh belongs to one or two tetrahedra (no overlap with the model)."""
    tris = np.sort(tets[:, [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]]].reshape(-1, 3), axis=1)
    _, counts = np.unique(tris, axis=0, return_counts=True)
    if counts.max() > 2:
        raise EngineError(
            "meshing_failed", "The air shell's mesh overlaps the model; the model's outside must be closed."
        )


def build_air_shell(
    model: TetModel,
    labels: np.ndarray,
    outside: np.ndarray,
    port_faces: np.ndarray,
    pec_faces: np.ndarray,
    thickness: float,
    sigma_max: float,
    wavelength: float,
    order: int,
) -> AirShell:
    """`outside`: mask of the model faces the shell wraps; `port_faces`/`pec_faces`: masks of the
    faces that are wave ports / PEC (labels, metal bodies), to back ports on the outside with PEC."""
    centre = (model.vertices.min(axis=0) + model.vertices.max(axis=0)) / 2
    r_model = float(np.max(np.linalg.norm(model.vertices - centre, axis=1)))
    margin = wavelength / 4
    radii = [r_model + margin / 2, r_model + margin, r_model + margin + thickness]
    h_far = min(wavelength / ELEMENTS_PER_WAVELENGTH_FAR[order], thickness / ELEMENTS_ACROSS_PML)
    h = min(wavelength / ELEMENTS_PER_WAVELENGTH[order], h_far)
    new_xyz, tets, sphere_tris = _mesh_shell(model, outside, centre, radii, [h, h_far, h_far])
    vertices = np.concatenate([model.vertices, new_xyz])

    # The shell must close on the model's outside triangles exactly (no point inserted on them).
    shell_keys = set()
    for t in tets[0]:
        for f in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)):
            shell_keys.add(tuple(sorted(int(t[i]) for i in f)))
    if not _face_keys(model.faces[outside]) <= shell_keys:
        raise EngineError(
            "meshing_failed",
            "The air shell's mesh does not match the model's outside triangles; check that the model's "
            "outside is a closed surface without overlapping triangles.",
        )

    # Ports on the outside: duplicate their vertices for the shell so the shell's air sees a PEC wall.
    outside_ports = outside & port_faces
    backing = np.zeros((0, 3), dtype=np.int64)
    cut = np.zeros(len(model.faces), dtype=bool)
    if outside_ports.any():
        port_vertices = np.unique(model.faces[outside_ports])
        cut = outside & np.isin(model.faces, port_vertices).any(axis=1)
        if not np.all((port_faces | pec_faces)[cut]):
            raise InvalidInput(
                "A wave port on the model's outside must be surrounded by PEC faces (the walls of its feed "
                "line): give the faces around it a Dirichlet (PEC) condition, or model the air around the "
                "structure yourself."
            )
        dup = np.full(len(vertices), -1, dtype=np.int64)
        dup[port_vertices] = len(vertices) + np.arange(len(port_vertices))
        vertices = np.concatenate([vertices, vertices[port_vertices]])
        remap = np.arange(len(dup))
        remap[port_vertices] = dup[port_vertices]
        tets = [remap[t] for t in tets[:1]] + tets[1:]
        # shell side of each cut face, oriented out of the shell's air (into the model)
        backing = remap[model.faces[cut]][:, [0, 2, 1]]

    shell_tets = _positive(vertices, np.concatenate(tets))
    _check_conforming(np.concatenate([model.tetrahedra, shell_tets]))
    nb = len(model.region_names)
    shell_regions = np.concatenate([np.full(len(t), nb + i, dtype=np.int64) for i, t in enumerate(tets)])
    spheres = [_orient_outward(vertices, t, centre) for t in sphere_tris]
    new_faces = np.concatenate([*spheres, backing])
    face_outer = model.face_outer_region.copy()
    face_outer[outside & ~cut] = nb
    merged = TetModel(
        vertices=vertices,
        tetrahedra=np.concatenate([model.tetrahedra, shell_tets]),
        regions=np.concatenate([model.regions, shell_regions]),
        region_names=[*model.region_names, *SHELL_REGION_NAMES],
        faces=np.concatenate([model.faces, new_faces]),
        face_inner_region=np.concatenate(
            [model.face_inner_region, *[np.full(len(s), nb + i) for i, s in enumerate(spheres)]]
            + [np.full(len(backing), nb)]
        ).astype(np.int64),
        face_outer_region=np.concatenate(
            [face_outer, np.full(len(spheres[0]), nb + 1), np.full(len(spheres[1]), nb + 2)]
            + [np.full(len(spheres[2]) + len(backing), -1)]
        ).astype(np.int64),
        unit_scale=model.unit_scale,
        interface_faces=model.interface_faces,
        interface_regions=model.interface_regions,
    )
    new_labels = [FARFIELD_LABEL] * len(spheres[0]) + [PML_INNER_LABEL] * len(spheres[1])
    new_labels += [PML_OUTER_LABEL] * len(spheres[2]) + [PORT_BACKING_LABEL] * len(backing)
    merged_labels = np.concatenate([labels.astype(object), np.array(new_labels, dtype=object)])
    pml = RadialPml(
        centre,
        radii[1],
        thickness,
        sigma_max,
        regex=f"body{nb + 2}",
        outside_regex="|".join(f"body{i}" for i in range(nb + 2)),
        notes=[
            f"air sphere and PML shell added around the model (margin λ/4 = {margin:.4g} m at the highest "
            "frequency); boundary behind the PML is PEC"
        ],
    )
    return AirShell(
        merged,
        merged_labels,
        pml,
        r_model,
        radii[0],
        h,
        len(vertices) - model.nv,
        len(shell_tets),
        int((outside & ~cut).sum()),
        int(cut.sum()),
    )
