"""Radial PML on HCurl: plane-wave reflection at normal incidence, default settings.

A TEM plane wave (E along y) runs between PEC plates (y = 0, w) and PMC side walls (x = 0, w) into a
radial PML centred on the source plane (so the wave meets it head-on). With the defaults
(pmlThickness 0.1 m, pmlSigmaMax 1e6 S/m, capped to what the mesh resolves) the reflection must stay
below −30 dB; with the stretch switched off the same setup reflects totally (the test can fail).
"""

import math

import ngsolve as ng
import numpy as np
import pytest
from netgen.occ import Box, Glue, OCCGeometry, Y, Z
from validation.recorder import RECORDER

from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.fullwave.pml import RadialPml
from fieldline_engine.em.fullwave.solver import FullwaveSolver
from fieldline_engine.em.ports.modes import ModeShape
from fieldline_engine.em.ports.wave_port import build_wave_port

W, AIR, THICKNESS = 0.02, 0.05, 0.1


@pytest.fixture(scope="module")
def plane_wave_channel():
    air = Box((0, 0, 0), (W, W, AIR))
    air.mat("body0")
    layer = Box((0, 0, AIR), (W, W, AIR + THICKNESS))
    layer.mat("body0")
    for part in (air, layer):
        part.faces.name = "pmc"
        part.faces.Min(Y).name = "default"
        part.faces.Max(Y).name = "default"
    air.faces.Min(Z).name = "port_0"
    layer.faces.Max(Z).name = "default"
    mesh = ng.Mesh(OCCGeometry(Glue([air, layer])).GenerateMesh(maxh=0.012))
    port = build_wave_port(mesh, "port_0", "1", "TE10")
    # The TEM plane wave of this PEC/PMC channel: uniform E along y.
    port.mode = ModeShape(
        "TEM", "TEM", 0.0, None, port.face, source="plane wave", numeric_cf=ng.CF((0, 1, 0))
    )
    return mesh, port


def reflection_db(mesh, port, f, sigma_max):
    r_in = math.sqrt(2 * (W / 2) ** 2 + AIR**2)  # every air point lies inside r_in
    pml = RadialPml(np.array([W / 2, W / 2, 0.0]), r_in, THICKNESS, sigma_max)
    solver = FullwaveSolver(mesh, uniform_media(), 2, "default", [port], pml=pml)
    return 20 * math.log10(abs(solver.solve(f).s[0, 0])), pml


@pytest.mark.parametrize("f", [1e9, 3e9])
def test_pml_plane_wave_reflection_below_minus_30_db(plane_wave_channel, f):
    mesh, port = plane_wave_channel
    r_db, pml = reflection_db(mesh, port, f, sigma_max=1e6)
    print(
        f"PML normal incidence {f / 1e9:.0f} GHz (d = {THICKNESS / (299792458 / f):.2f} λ): reflection {r_db:.1f} dB, "
        f"σ_max used {pml.sigma_max:.3f} S/m"
    )
    RECORDER.record(
        f"em-pml-reflection-{f / 1e9:g}ghz",
        value=10 ** (r_db / 20),
        reference=0.0,
        error=10 ** (r_db / 20),
        order=2,
    )
    assert r_db < -30


def test_without_stretch_the_wave_reflects(plane_wave_channel):
    mesh, port = plane_wave_channel
    r_db, _ = reflection_db(mesh, port, 3e9, sigma_max=1e-9)
    print(f"PML switched off: reflection {r_db:.2f} dB")
    assert r_db > -0.1


def test_pml_layer_on_an_uploaded_air_box():
    from fieldline_engine.em.fullwave.pml_job import radial_pml_for_model
    from fieldline_engine.errors import InvalidInput
    from fieldline_engine.mesh.tet_model import model_from_mesh_data
    from fieldline_engine.testing.meshes import box_mesh

    model = model_from_mesh_data(box_mesh((0.6, 0.6, 0.6), (4, 4, 4)))
    labels = np.full(len(model.faces), "default", dtype=object)
    pml = radial_pml_for_model(model, {"useRadialPML": True}, labels)
    assert np.allclose(pml.centre, 0.3) and abs(pml.r_inner - 0.2) < 1e-12 and pml.thickness == 0.1
    with pytest.raises(InvalidInput, match="does not fit"):
        radial_pml_for_model(model, {"pmlThickness": 0.28}, labels)
    labels[0] = "port_0"  # a port on the outer boundary would sit inside the layer
    with pytest.raises(InvalidInput, match="port or boundary condition"):
        radial_pml_for_model(model, {}, labels)
