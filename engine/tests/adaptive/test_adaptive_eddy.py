"""Adaptive refinement of an eddy-current run (validation): flux recovery of the complex B draws refinement
into the skin of a round wire at four skin depths, and the passes stop when the wire's resistance changes by
less than the tolerance; the AC resistance against the Bessel-function closed form."""

import math
import time

from validation.recorder import RECORDER

from fieldline_engine.core.adaptive.loop import run_adaptive
from fieldline_engine.core.adaptive.surface import ReconstructedSurface
from fieldline_engine.em.magnetics.eddy_analysis import EddyCurrentAnalysis
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.round_wire import ac_resistance_ratio, frequency_for, wire_mesh_data

RADIUS, LENGTH, SIGMA, CURRENT = 1e-3, 0.5e-3, 5.8e7, 2.0


def test_round_wire_ac_resistance_adaptive_passes_reach_the_bessel_closed_form():
    started = time.perf_counter()
    data, _ = wire_mesh_data(radius_mm=1.0, length_mm=0.5, sleeve_mm=2.0, wire_h_mm=0.5)
    config = {
        "analysisType": "eddy-current",
        "frequency": frequency_for(4.0, RADIUS, SIGMA),
        "meshOrder": 2,
        # the wire's surface is an interface inside the model: curved elements follow it on every pass
        "useCurvedGeometry": True,
        "bodyMaterials": [{"region": "wire", "conductivity": SIGMA}],
        "solidConductors": [{"region": "wire", "current": CURRENT}],
        "adaptiveRefinement": {
            "tolerance": 0.005,
            "quantity": "resistance_ohm",
            "maxPasses": 8,
            "maxUnknowns": 150000,
        },
    }
    outcome = run_adaptive(
        EddyCurrentAnalysis(), model_from_mesh_data(data), config, SILENT, ReconstructedSurface()
    )
    sol = outcome.solution
    info = sol.solver_info["adaptive_refinement"]
    passes = sol.solver_info["adaptive_passes"]
    r_dc = LENGTH / (SIGMA * math.pi * RADIUS**2)
    exact = ac_resistance_ratio(4.0)
    for p in passes:
        print(
            f"pass {p['pass']}: {p['elements']} tets, {p['unknowns']} unknowns, R_ac/R_dc "
            f"{p['quantity'] / r_dc:.4f} ({p['quantity'] / r_dc / exact - 1:+.3%} vs Bessel {exact:.4f}), "
            f"estimated error {p['estimated_error']:.4f}, change {p['change']}"
        )
    print(f"adaptive: {info['message']}")
    ratio = sol.quantities["resistance_ohm"]["wire"] / r_dc
    seconds = time.perf_counter() - started
    RECORDER.record(
        "adaptive-eddy-round-wire-resistance",
        value=ratio,
        reference=exact,
        error=ratio / exact - 1,
        unknowns=passes[-1]["unknowns"],
        order=2,
        seconds=seconds,
        convergence=[(p["unknowns"], abs(p["quantity"] / r_dc / exact - 1)) for p in passes],
    )
    assert info["quantity"] == "resistance_ohm" and info["converged"] and info["stopped_by"] == "tolerance"
    assert len(passes) >= 2 and all(p["estimated_error"] is not None for p in passes)
    assert abs(passes[0]["quantity"] / r_dc / exact - 1) > abs(ratio / exact - 1)
    assert abs(ratio / exact - 1) < 0.01
    # The estimated error falls pass by pass, and the last estimate is the cell field on the final mesh.
    assert passes[-1]["estimated_error"] < passes[0]["estimated_error"]
    assert sol.field("error_indicator").size == outcome.model.nt


def test_a_bare_coil_over_a_plate_refines_its_added_air_and_shows_the_device():
    """Eddy currents with the air added around a bare device (a coil over an aluminium plate): the air is
    meshed once and refined with the device; the results show the coil and the plate, with the air's share
    of the estimate reported."""
    import ngsolve as ng
    import numpy as np
    from netgen import occ
    from netgen.occ import OCCGeometry

    from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve

    coil = occ.Cylinder(occ.Pnt(0, 0, 2), occ.Z, r=10, h=4) - occ.Cylinder(occ.Pnt(0, 0, 2), occ.Z, r=6, h=4)
    coil.mat("coil")
    plate = occ.Box(occ.Pnt(-12, -12, -2), occ.Pnt(12, 12, 0))
    plate.mat("plate")
    mesh = ng.Mesh(OCCGeometry(occ.Glue([coil, plate])).GenerateMesh(maxh=6.0))
    data, _ = mesh_data_from_ngsolve(mesh, "mm")
    names = list(mesh.GetMaterials())
    data["tetrahedron_regions"] = [names.index(el.mat) for el in mesh.Elements(ng.VOL)]
    data["region_names"] = names
    model = model_from_mesh_data(data)
    config = {
        "analysisType": "eddy-current",
        "frequency": 1000.0,
        "meshOrder": 1,
        "airPadding": 2.0,
        "coils": [
            {"name": "c", "region": "coil", "turns": 50, "current": 1.0, "phase": 30, "axis": [0, 0, 1]}
        ],
        "bodyMaterials": [{"region": "plate", "conductivity": 3.5e7}],
        "adaptiveRefinement": {"tolerance": 1e-4, "maxPasses": 2},
    }
    outcome = run_adaptive(EddyCurrentAnalysis(), model, config, SILENT, ReconstructedSurface())
    sol = outcome.solution
    passes = sol.solver_info["adaptive_passes"]
    air = sol.solver_info["air_region"]
    for p in passes:
        print(
            f"[adaptive] bare coil over a plate: pass {p['pass']}: {p['elements']} tets, {p['unknowns']} unknowns, "
            f"estimated error {p['estimated_error']:.4f}, loss {p['quantity']:.4g} W"
        )
    print(
        f"[adaptive] bare coil over a plate: air share {air['estimated_error_share']:.0%}, "
        f"{air['added_tetrahedra']} air tets"
    )
    assert len(passes) == 2 and passes[1]["estimated_error"] < passes[0]["estimated_error"]
    assert air["refined"] and 0 < air["estimated_error_share"] < 1
    shown = outcome.model
    assert shown.region_names == names and set(np.unique(shown.regions).tolist()) == {0, 1}
    assert shown.nt + air["added_tetrahedra"] == passes[-1]["elements"] and shown.nt > model.nt
    for name in ("magnetic_flux_density", "loss_density", "error_indicator"):
        f = sol.field(name)
        assert len(f.values) == (shown.nv if f.location == "vertex" else shown.nt)
    # every face the results show lies on the device: an outside face or an interface between coil and plate
    assert np.all(shown.faces < shown.nv) and np.all(shown.face_ids >= 1)
    assert sol.quantities["loss_W"]["plate"] > 0
