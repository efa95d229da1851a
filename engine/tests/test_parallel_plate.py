"""Walking-skeleton validation: a parallel-plate gap with insulating side walls.

Between plates at 0 V and V, with zero-flux side walls, the exact field is uniform, E = V/d, and the
capacitance is C = εA/d. Both are asserted within 0.5 % (order 1) — exact up to round-off in fact.
"""

import json

import numpy as np

from fieldline_engine.testing.meshes import box_mesh, faces_on_plane, nodes_on_plane

EPS0 = 8.854e-12


def plate_job(tmp_path, by_nodes: bool):
    a, d, volts = 0.01, 0.002, 10.0
    mesh = box_mesh((a, a, d), (4, 4, 3))
    config = {"analysisType": "em", "frequency": 0, "defaultPermittivity": EPS0, "meshOrder": 1}
    if by_nodes:
        config["dirichletConditions"] = {str(n): 0.0 for n in nodes_on_plane(mesh, 2, 0.0)} | {
            str(n): volts for n in nodes_on_plane(mesh, 2, d)
        }
    else:
        config["dirichletFaceConditions"] = [
            {"faces": faces_on_plane(mesh, 2, 0.0), "voltage": 0.0},
            {"faces": faces_on_plane(mesh, 2, d), "voltage": volts},
        ]
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
    return a, d, volts


def check_results(tmp_path, a, d, volts):
    results = json.loads((tmp_path / "results.json").read_text())
    e = np.asarray(results["field_magnitudes"]["e_magnitudes"]["data"])
    err = np.max(np.abs(e - volts / d)) / (volts / d)
    print(f"parallel plate: max |E - V/d| / (V/d) = {err:.2e}")
    assert err < 0.005
    c_exact = EPS0 * a * a / d
    c = results["quantities"]["capacitance_F"]
    print(f"parallel plate: C = {c:.6e} F, exact {c_exact:.6e} F, error {abs(c - c_exact) / c_exact:.2e}")
    assert abs(c - c_exact) / c_exact < 0.005
    assert results["solver_info"]["elements"] == len(results["tetrahedra"]) == 4 * 4 * 3 * 6
    assert results["solver_info"]["matrix_size"] == len(results["vertices"])
    assert results["computation_time"] > 0


def test_parallel_plate_by_face_groups(engine, tmp_path):
    a, d, volts = plate_job(tmp_path, by_nodes=False)
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    assert any(e["event"] == "progress" for e in events)
    check_results(tmp_path, a, d, volts)


def test_parallel_plate_by_node_voltages(engine, tmp_path):
    a, d, volts = plate_job(tmp_path, by_nodes=True)
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    check_results(tmp_path, a, d, volts)


def test_floating_problem_fails_with_clear_message(engine, tmp_path):
    mesh = box_mesh((1, 1, 1), (1, 1, 1))
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": {"analysisType": "em"}}))
    final = engine("solve", tmp_path)[-1]
    assert final["event"] == "error"
    assert final["code"] == "invalid_input"
    assert "floating" in final["message"]
    assert not (tmp_path / "results.json").exists()


def test_face_id_out_of_range_is_refused(engine, tmp_path):
    mesh = box_mesh((1, 1, 1), (1, 1, 1))
    config = {"dirichletFaceConditions": [{"faces": [1, 999], "voltage": 1.0}]}
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
    final = engine("solve", tmp_path)[-1]
    assert final["event"] == "error"
    assert "face id 999 is out of range" in final["message"]
