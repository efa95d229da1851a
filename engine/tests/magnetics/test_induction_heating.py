"""Induction heating: a thermal run heated by the same job's eddy-current losses (thermal/induction.py)."""

import numpy as np
import pytest

from fieldline_engine import analyses  # noqa: F401 — registers the families
from fieldline_engine.core.registry import analysis_for
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.magnetic_models import bar_in_air
from fieldline_engine.testing.meshes import faces_on_plane


def thermal(mesh, **config):
    config = {"analysisType": "thermal", "meshOrder": 1, **config}
    return analysis_for(config).solve(model_from_mesh_data(mesh), config, SILENT)


def test_the_eddy_losses_heat_the_thermal_run():
    mesh = bar_in_air()
    walls = faces_on_plane(mesh, 0, 0.0) + faces_on_plane(mesh, 0, 3e-3)
    sol = thermal(
        mesh,
        inductionHeating=True,
        frequency=20e3,
        bodyMaterials=[{"region": "bar", "conductivity": 5.8e7, "thermalConductivity": 400.0}],
        thermalConductivity=0.5,
        solidConductors=[{"region": "bar", "current": 50.0}],
        temperatureConditions=[{"faces": walls, "temperature": 300.0, "name": "walls"}],
    )
    loss = sol.quantities["total_loss_W"]
    flows = {f["condition"]: f["heat_flow_W"] for f in sol.quantities["heat_flows"]}
    print(f"[induction] eddy loss {loss:.6g} W, heat leaving through the walls {-flows['walls']:.6g} W")
    assert loss > 0
    assert abs(flows["walls"]) == pytest.approx(loss, rel=1e-6)
    assert sol.field("loss_density") is not None and sol.field("temperature") is not None
    assert "induction" in sol.solver_info
    assert np.max(sol.field("temperature").values) > 300.0


def test_induction_heating_needs_a_source():
    mesh = bar_in_air()
    with pytest.raises(InvalidInput, match="Induction heating needs the eddy-current setup"):
        thermal(
            mesh,
            inductionHeating=True,
            frequency=50,
            temperatureConditions=[{"faces": faces_on_plane(mesh, 0, 0.0), "temperature": 300.0}],
        )
