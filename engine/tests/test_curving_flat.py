"""The reconstruction's shortcut for piecewise flat surfaces (mesh/curving.py `_piecewise_flat`): a model whose
smooth patches are all planes moves no edge, and the shortcut must say "flat" exactly when the full
computation finds nothing to move — for flat models (a box, the L-shaped prism, after local refinement) and
not for a curved one (a post through a waveguide)."""

import numpy as np
import pytest

import fieldline_engine.mesh.curving as curving
from fieldline_engine.core.adaptive.refine import refine_model
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.testing.adaptive_meshes import l_shape_mesh, wr90_post_mesh_data
from fieldline_engine.testing.meshes import box_mesh


def _lshape():
    return model_from_mesh_data(l_shape_mesh(2))


def _lshape_refined():
    model = _lshape()
    return refine_model(model, np.arange(model.nt) % 3 == 0)


MODELS = {  # name → (builder, flat)
    "box": (lambda: model_from_mesh_data(box_mesh((1.0, 2.0, 3.0), (3, 3, 3))), True),
    "l-shape": (_lshape, True),
    "l-shape refined": (_lshape_refined, True),
    "wr90 post": (lambda: model_from_mesh_data(wr90_post_mesh_data(10.0)), False),
}


@pytest.mark.parametrize("name", list(MODELS))
def test_the_flat_shortcut_agrees_with_the_full_reconstruction(name, monkeypatch):
    build, flat = MODELS[name]
    model = build()
    fast = curving.edge_displacements(model)
    monkeypatch.setattr(curving, "_piecewise_flat", lambda *args: False)
    full = curving.edge_displacements(model)
    print(f"{name}: {len(full)} curved edges by the full reconstruction, {len(fast)} with the shortcut")
    assert (len(full) == 0) == flat
    assert fast.keys() == full.keys()
    for key, d in full.items():
        assert np.array_equal(fast[key], d)
