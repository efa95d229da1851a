"""The automatic air shell through the engine's `solve` command.

An open-ended WR-90 stub (22.86 × 10.16 × 5 mm, walls PEC by Dirichlet face conditions, TE10 port at
z = 0, the aperture at z = 15 mm left open) uploaded with no air around it: with useRadialPML the engine
meshes an air sphere and a PML around it, the wave radiates out of the aperture, and |S11| drops from 1
(closed guide) to the open end's reflection (an unflanged WR-90 end reflects roughly −10 to −15 dB;
the test only bounds it loosely: it proves the wave leaves through the shell).
"""

import json
import math

import numpy as np

from fieldline_engine.testing.meshes import box_mesh, faces_on_plane

A, B, L = 22.86, 10.16, 5.0  # mm
F = 7.5e9


def stub_job(tmp_path, **extra):
    mesh = box_mesh((A, B, L), (5, 2, 1))
    mesh["units"] = "mm"
    walls = [f for axis, v in ((0, 0.0), (0, A), (1, 0.0), (1, B)) for f in faces_on_plane(mesh, axis, v)]
    config = {
        "analysisType": "em",
        "frequency": F,
        "meshOrder": 2,
        "useWavePorts": True,
        "wavePorts": [{"portID": 1, "faces": faces_on_plane(mesh, 2, 0.0), "mode": "TE10"}],
        "dirichletFaceConditions": [{"faces": walls, "voltage": 0}],
        "useRadialPML": True,
        "pmlThickness": 0.016,
        **extra,
    }
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
    return mesh


def test_open_ended_waveguide_radiates_through_the_added_shell(engine, tmp_path):
    mesh = stub_job(tmp_path)
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    res = json.loads((tmp_path / "results.json").read_text())
    shell = res["solver_info"]["air_shell"]
    print(f"air shell: {shell}")
    assert shell["added"] is True and shell["added_tetrahedra"] > 0
    assert shell["thickness_m"] == 0.016
    assert shell["pml_inner_radius_m"] > shell["farfield_radius_m"] > shell["model_radius_m"]
    # λ/4 margin at 10 GHz around the bounding sphere
    assert abs(shell["pml_inner_radius_m"] - shell["model_radius_m"] - 0.25 * 299792458 / F) < 1e-9
    assert shell["port_backed_faces"] > 0 and shell["open_model_faces"] == 2 * 5 * 2  # the aperture
    assert (
        res["pml"]["air_shell"]["added"] is True
        and res["pml"]["inner_radius_m"] == shell["pml_inner_radius_m"]
    )
    # The user's model is what comes back.
    assert len(res["vertices"]) == len(mesh["vertices"]) and len(res["faces"]) == len(mesh["faces"])
    e = np.asarray(res["field_magnitudes"]["e_magnitudes"]["data"])
    assert len(e) == len(mesh["vertices"]) and e.max() > 0
    s11 = complex(*res["s_parameters"]["matrix"][0][0][0])
    s11_db = 20 * math.log10(abs(s11))
    print(
        f"open-ended WR-90 at 7.5 GHz: |S11| = {s11_db:.2f} dB, {res['solver_info']['matrix_size']} unknowns"
    )
    assert -20 < s11_db < -3
    # Energy balance (lossless): the 1 W sent in either comes back through the port or crosses the
    # far-field sphere; a wrong port backing or a reflecting shell breaks it.
    p_rad = shell["radiated_power_w"]
    print(f"radiated {p_rad:.4f} W, 1 − |S11|² = {1 - abs(s11) ** 2:.4f} W")
    assert abs(p_rad - (1 - abs(s11) ** 2)) < 0.03


def test_closed_stub_without_pml_reflects_totally(engine, tmp_path):
    """The same stub without the PML: the aperture is a PEC wall, so |S11| = 1 (the shell made the difference)."""
    stub_job(tmp_path, useRadialPML=False)
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    res = json.loads((tmp_path / "results.json").read_text())
    s11 = complex(*res["s_parameters"]["matrix"][0][0][0])
    print(f"closed stub: |S11| = {abs(s11):.6f}")
    assert abs(abs(s11) - 1) < 1e-4 and "air_shell" not in res["solver_info"]


def test_port_on_the_outside_without_pec_around_it_is_refused(engine, tmp_path):
    """Without the walls' Dirichlet (PEC) condition the port's neighbours would open onto the air:
    the port cannot be backed by PEC, so the job is refused with advice and writes no results."""
    stub_job(tmp_path, dirichletFaceConditions=[])
    final = engine("solve", tmp_path)[-1]
    assert final["event"] == "error" and "must be surrounded by PEC faces" in final["message"]
    assert not (tmp_path / "results.json").exists()


def test_impedance_wall_on_the_outside_is_refused(engine, tmp_path):
    mesh = stub_job(tmp_path)
    job = json.loads((tmp_path / "job.json").read_text())
    job["config"]["impedanceConditions"] = [{"faces": faces_on_plane(mesh, 2, L), "impedance": {"real": 377}}]
    (tmp_path / "job.json").write_text(json.dumps(job))
    final = engine("solve", tmp_path)[-1]
    assert final["event"] == "error" and "impedance boundary on the model's outside" in final["message"]
