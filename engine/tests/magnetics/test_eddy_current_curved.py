"""Eddy currents on curved elements: the curl-curl and σ mass forms integrated exactly enough that the coil's
reactive power from its flux linkage equals the field energy's, as on straight elements (docs/magnetics.md)."""

import math

from fieldline_engine import analyses  # noqa: F401 — registers the families
from fieldline_engine.core.registry import analysis_for
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.induction_billet import billet_slice_mesh_data


def test_a_curved_billets_coil_reactance_matches_the_field_energy():
    """A Galerkin solution satisfies a(A, Ā) = f(Ā) with the assembled forms, so the coil's ½XI² (from its
    flux linkage) equals 2ωW (W = ¼∫ν|B|², integrated finely) exactly when the assembly integrates ν|curl A|²
    exactly. On the curved billet the default rule left 2.9e-7 between them (1.1e-10 on the straight mesh);
    one order more on curved elements (eddy_current.py) brings it to the straight mesh's 1.1e-10."""
    sigma, frequency, turns, current = 5e6, 5000.0, 10, 20.0
    data, groups = billet_slice_mesh_data(height_mm=2.0)
    config = {
        "analysisType": "eddy-current",
        "frequency": frequency,
        "meshOrder": 2,
        "useCurvedGeometry": True,
        "bodyMaterials": [{"region": "billet", "conductivity": sigma}],
        "coils": [{"name": "coil", "region": "coil", "turns": turns, "current": current, "axis": [0, 0, 1]}],
        "magneticBoundaries": [{"faces": groups["outer"], "type": "flux-normal"}],
    }
    sol = analysis_for(config).solve(model_from_mesh_data(data), config, SILENT)
    assert sol.solver_info["curved_geometry"]["curved"]
    q = sol.quantities
    omega = 2 * math.pi * frequency
    reactive = abs(q["reactance_ohm"]["coil"] * current**2 / (4 * omega * q["energy_J"]) - 1)
    active = abs(0.5 * q["resistance_ohm"]["coil"] * current**2 / q["total_loss_W"] - 1)
    print(f"[magnetics] curved billet: ½XI² vs 2ωW {reactive:.2e}, ½RI² vs the loss {active:.2e}")
    assert reactive < 1e-8
    assert active < 1e-8
