"""The magnetostatic analysis as a job runs it (docs/magnetics.md): an uploaded device without air gets its
air, the named fields and quantities come back, and bad input is refused with the offending item."""

import math

import ngsolve as ng
import numpy as np
import pytest
from netgen import occ
from netgen.occ import OCCGeometry

from fieldline_engine import analyses  # noqa: F401 — registers the families
from fieldline_engine.core.registry import analysis_for
from fieldline_engine.em.constants import MU0
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve

A, B, H, T = 0.02, 0.03, 0.01, 0.002


def ring(r1, r2, z1, z2):
    return occ.Cylinder(occ.Pnt(0, 0, z1), occ.Z, r=r2, h=z2 - z1) - occ.Cylinder(
        occ.Pnt(0, 0, z1), occ.Z, r=r1, h=z2 - z1
    )


@pytest.fixture(scope="module")
def toroid_model():
    """A ring core and its winding shell, uploaded in mm without air."""
    core = ring(A, B, -H / 2, H / 2)
    core.mat("core")
    winding = ring(A - T, B + T, -H / 2 - T, H / 2 + T) - core
    winding.mat("winding")
    mesh = ng.Mesh(OCCGeometry(occ.Glue([core, winding])).GenerateMesh(maxh=0.005))
    data, _ = mesh_data_from_ngsolve(mesh, "mm")
    names = list(mesh.GetMaterials())
    data["tetrahedron_regions"] = [names.index(el.mat) for el in mesh.Elements(ng.VOL)]
    data["region_names"] = names
    return model_from_mesh_data(data)


def solve(model, **config):
    config = {"analysisType": "magnetostatic", "meshOrder": 2, **config}
    return analysis_for(config).solve(model, config, SILENT)


def test_uploaded_toroid_gets_air_and_reports_its_inductance(toroid_model):
    turns, mu_r = 100, 1000.0
    sol = solve(
        toroid_model,
        coils=[{"name": "w", "region": "winding", "turns": turns, "current": 1.0, "wraps": "core"}],
        bodyMaterials=[{"region": "core", "relativePermeability": mu_r}],
        forceBodies=["core"],
    )
    air = sol.solver_info["air_region"]
    assert air["added"] and air["added_tetrahedra"] > 0
    exact = MU0 * mu_r * turns**2 * H * math.log(B / A) / (2 * math.pi)
    inductance = sol.quantities["inductance_H"]
    print(
        f"[magnetics] job toroid L = {inductance:.6g} H vs {exact:.6g} H ({(inductance - exact) / exact:+.2%})"
    )
    assert inductance == pytest.approx(exact, rel=0.02)
    assert sol.quantities["inductance_matrix_H"]["w"]["w"] == inductance
    assert sol.quantities["flux_linkage_Wb"]["w"] == pytest.approx(inductance, rel=1e-9)
    assert sol.quantities["energy_J"] == pytest.approx(0.5 * inductance, rel=1e-4)
    assert np.linalg.norm(sol.quantities["force_N"]["core"]) < 1e-4  # a toroid pulls itself nowhere
    names = [f.name for f in sol.fields]
    assert names == ["magnetic_flux_density", "magnetic_field", "current_density", "coil_direction"]
    b = sol.field("magnetic_flux_density")
    assert b.unit == "T" and b.size == toroid_model.nv
    core_vertices = np.unique(toroid_model.tetrahedra[toroid_model.regions == 0])
    r = np.linalg.norm(toroid_model.vertices[core_vertices, :2], axis=1)
    inside = (r > A + 0.002) & (r < B - 0.002)
    expected = MU0 * mu_r * turns / (2 * math.pi * r[inside])
    assert np.median(np.abs(b.magnitude()[core_vertices][inside] / expected - 1)) < 0.03


def test_refusals_name_the_offending_item(toroid_model):
    with pytest.raises(InvalidInput, match=r"B–H point 2 \[50, 0\.9\]: the curve must be monotone"):
        solve(
            toroid_model,
            coils=[{"name": "w", "region": "winding", "turns": 10, "current": 1.0, "wraps": "core"}],
            bodyMaterials=[{"region": "core", "bhCurve": [[0, 0], [100, 1.0], [50, 0.9]]}],
        )
    with pytest.raises(InvalidInput, match="cannot wrap its own body"):
        solve(toroid_model, coils=[{"name": "w", "region": "winding", "turns": 10, "current": 1, "wraps": 1}])
    with pytest.raises(InvalidInput, match="does not go around the axis"):
        solve(
            toroid_model,
            coils=[{"name": "w", "region": "core", "turns": 10, "current": 1, "axis": [1, 0, 0]}],
        )
    with pytest.raises(InvalidInput, match="no body 'yoke'"):
        solve(toroid_model, coils=[{"name": "w", "region": "yoke", "turns": 10, "current": 1.0}])


def test_a_winding_wrapping_a_half_ring_core_is_refused_saying_why():
    """A toroid halved by a plane through its axis: the wrapping path needs the whole core's centre circle."""
    import ngsolve as ng
    from netgen import occ

    from fieldline_engine.core.h1_scalar import SolverOptions
    from fieldline_engine.em.magnetics.run import run_magnetostatic
    from fieldline_engine.em.magnetics.setup import CoilSpec
    from fieldline_engine.em.magnetics.solver import BodyMagnetics

    half = occ.Box(occ.Pnt(-0.05, 0, -0.05), occ.Pnt(0.05, 0.05, 0.05))

    def ring(r1, r2, h):
        outer = occ.Cylinder(occ.Pnt(0, 0, -h / 2), occ.Z, r=r2, h=h)
        return outer - occ.Cylinder(occ.Pnt(0, 0, -h / 2), occ.Z, r=r1, h=h)

    core = ring(0.02, 0.03, 0.01) * half
    core.mat("body0")
    winding = ring(0.018, 0.032, 0.014) * half - core
    winding.mat("body1")
    air = occ.Cylinder(occ.Pnt(0, 0, -0.02), occ.Z, r=0.04, h=0.04) * half - core - winding
    air.mat("body2")
    mesh = ng.Mesh(occ.OCCGeometry(occ.Glue([core, winding, air])).GenerateMesh(maxh=0.01))
    coil = CoilSpec("winding", 1, 100, 1.0, None, 0, None)
    with pytest.raises(InvalidInput, match="needs that body whole.*half or quarter toroid"):
        run_magnetostatic(
            mesh,
            [BodyMagnetics(1000.0), BodyMagnetics(), BodyMagnetics()],
            [coil],
            1,
            SolverOptions(choice="auto"),
        )
