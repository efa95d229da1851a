"""Curved geometry reconstructs a smooth interface between two bodies whichever side each of its triangles
is listed from: a refined model (core/adaptive/refine.py) lists an interface face out of whichever
tetrahedron came first, and the reconstruction once took the two orientations for two surfaces meeting at a
crease — a refined winding's curved faces then stayed partly flat (a bare solenoid's inductance stuck near
−0.7 % under adaptive passes; −0.26 % with this fixed)."""

import ngsolve as ng
import numpy as np
from netgen import occ
from netgen.occ import OCCGeometry

from fieldline_engine.mesh.curving import edge_displacements
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve


def test_an_interface_listed_from_either_side_is_one_curved_surface():
    rod = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, r=5, h=10)
    rod.mat("rod")
    box = occ.Box(occ.Pnt(-10, -10, 0), occ.Pnt(10, 10, 10)) - rod
    box.mat("box")
    mesh = ng.Mesh(OCCGeometry(occ.Glue([rod, box])).GenerateMesh(maxh=4.0))
    data, _ = mesh_data_from_ngsolve(mesh, "mm")
    names = list(mesh.GetMaterials())
    data["tetrahedron_regions"] = [names.index(el.mat) for el in mesh.Elements(ng.VOL)]
    model = model_from_mesh_data(data)
    interface = np.nonzero(model.face_outer_region >= 0)[0]
    assert len(interface) > 20
    before = edge_displacements(model)

    flipped = interface[::2]  # every other interface triangle listed from the other body's side
    model.faces[flipped] = model.faces[flipped][:, [0, 2, 1]]
    inner = model.face_inner_region[flipped].copy()
    model.face_inner_region[flipped] = model.face_outer_region[flipped]
    model.face_outer_region[flipped] = inner
    after = edge_displacements(model)

    on_interface = {
        tuple(sorted(e)) for f in model.faces[interface] for e in ((f[0], f[1]), (f[1], f[2]), (f[2], f[0]))
    }
    curved = [e for e in on_interface if e in before]
    print(
        f"[curving] {len(curved)} curved interface edges; {sum(e in after for e in curved)} still curved after flipping half"
    )
    assert len(curved) > 10
    for e in curved:
        assert e in after and np.allclose(after[e], before[e], atol=1e-12)
