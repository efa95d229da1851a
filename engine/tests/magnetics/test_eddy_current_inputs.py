"""Eddy-current input handling: clear refusals, terminals found or given, the current reached."""

import numpy as np
import pytest

from fieldline_engine import analyses  # noqa: F401 — registers the families
from fieldline_engine.core.registry import analysis_for
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.magnetic_models import bar_in_air
from fieldline_engine.testing.meshes import faces_on_plane


def solve(mesh, **config):
    config = {"analysisType": "eddy-current", "meshOrder": 1, **config}
    analysis = analysis_for(config)
    analysis.check(config)
    return analysis.solve(model_from_mesh_data(mesh), config, SILENT)


COPPER = [{"region": "bar", "conductivity": 5.8e7}]


def test_needs_a_frequency_and_a_source():
    with pytest.raises(InvalidInput, match="frequency above 0"):
        solve(
            bar_in_air(), frequency=0, bodyMaterials=COPPER, solidConductors=[{"region": "bar", "current": 1}]
        )
    with pytest.raises(InvalidInput, match="needs a source"):
        solve(bar_in_air(), frequency=50, bodyMaterials=COPPER)


def test_solid_conductor_needs_conductivity_and_terminals():
    with pytest.raises(InvalidInput, match="no conductivity"):
        solve(bar_in_air(), frequency=50, solidConductors=[{"region": "bar", "current": 1}])
    # No terminals and not a ring: the current has no path (a ring would circulate, test_solid_ring.py).
    with pytest.raises(InvalidInput, match="not a ring around a hole"):
        solve(
            bar_in_air(inner=True),
            frequency=50,
            bodyMaterials=COPPER,
            solidConductors=[{"region": "bar", "current": 1}],
        )


def test_found_and_given_terminals_feed_the_same_current():
    mesh = bar_in_air()
    feed = {"region": "bar", "current": 3.0, "phase": 30.0}
    found = solve(mesh, frequency=1e3, bodyMaterials=COPPER, solidConductors=[feed])
    faces = np.asarray(mesh["faces"])
    v = np.asarray(mesh["vertices"])
    centre = v[faces].mean(axis=1)
    on_bar = (np.abs(centre[:, 0] - 1.5e-3) < 0.5e-3) & (np.abs(centre[:, 1] - 1.5e-3) < 0.5e-3)
    bottom = [f for f in faces_on_plane(mesh, 2, 0.0) if on_bar[f - 1]]
    top = [f for f in faces_on_plane(mesh, 2, 3e-3) if on_bar[f - 1]]
    given = solve(
        mesh,
        frequency=1e3,
        bodyMaterials=COPPER,
        solidConductors=[{**feed, "terminals": {"in": bottom, "out": top}}],
    )
    assert found.quantities["current_A"]["bar"] == pytest.approx(3.0, rel=1e-9)
    r = found.quantities["resistance_ohm"]["bar"]
    assert given.quantities["resistance_ohm"]["bar"] == pytest.approx(r, rel=1e-9)
    # At 1 kHz the 1 mm bar is far thinner than δ (2 mm): R is its DC resistance L/σA within 2 %.
    assert r == pytest.approx(3e-3 / (5.8e7 * 1e-6), rel=0.02)
    loss = found.field("loss_density")
    assert loss is not None and loss.location == "cell"
    assert found.field("current_density").complex
