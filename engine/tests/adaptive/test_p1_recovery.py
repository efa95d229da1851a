"""The closed-form recovery of a first-order potential's gradient (core/adaptive/p1_recovery.py) gives the
indicators and norm NGSolve's projection and integration give (recovery_indicators), to rounding: on a
locally refined L-shape, and on two bodies with different weights (the weight a per-body constant)."""

import ngsolve as ng
import numpy as np

from fieldline_engine.core.adaptive.estimate import recovery_indicators
from fieldline_engine.core.adaptive.p1_recovery import applies, p1_recovery_indicators
from fieldline_engine.core.adaptive.refine import refine_model
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.testing.adaptive_meshes import l_shape_mesh


def _compare(model, weights):
    mesh = build_ngsolve_mesh(model)
    space = ng.H1(mesh, order=1)
    u = ng.GridFunction(space)
    u.Set(ng.x * ng.x - 2 * ng.y * ng.z + ng.sin(3 * ng.x) * ng.y)  # any P1 function with varying gradient
    assert applies(mesh, u, 1, False, model.nv)
    weight = mesh.MaterialCF({f"body{i}": w for i, w in enumerate(weights)}, default=0.0)
    expected, expected_norm = recovery_indicators(model, mesh, -ng.grad(u), weight, 1)
    values = u.vec.FV().NumPy().copy()
    got, norm = p1_recovery_indicators(model, values, np.asarray(weights)[model.regions])
    worst = float(np.max(np.abs(got - expected)) / np.max(expected))
    print(
        f"closed-form recovery vs NGSolve's: {model.nt} tets, worst indicator difference {worst:.2e} of the "
        f"largest, norm² {norm:.12g} vs {expected_norm:.12g}"
    )
    assert worst < 1e-11
    assert abs(norm - expected_norm) < 1e-11 * expected_norm
    return mesh, u


def test_closed_form_matches_ngsolve_on_a_locally_refined_l_shape():
    model = model_from_mesh_data(l_shape_mesh(2))
    model = refine_model(model, np.arange(model.nt) % 3 == 0)
    _compare(model, [2.5])


def test_closed_form_matches_ngsolve_on_two_bodies_with_different_weights():
    data = l_shape_mesh(2)
    centres = np.asarray(data["vertices"])[np.asarray(data["tetrahedra"])].mean(axis=1)
    data["tetrahedron_regions"] = (centres[:, 0] > 0).astype(int)
    model = model_from_mesh_data(data)
    assert len(model.region_names) == 2
    model = refine_model(model, np.arange(model.nt) % 2 == 0)
    mesh, u = _compare(model, [1.0, 80.0])
    # and it stands aside where the closed form does not hold
    assert not applies(mesh, u, 2, False, model.nv)
    assert not applies(mesh, ng.GridFunction(ng.H1(mesh, order=2)), 1, False, model.nv)
