"""Config fields an analysis path does not use (spec 001 §3): refused when ignoring them would change the
physics, named in `solver_info.warnings` otherwise; `verbose` puts the run's log into the results."""

import json

import pytest

from fieldline_engine.core.results import results_from_solution
from fieldline_engine.core.solution import Solution
from fieldline_engine.em.option_support import (
    ADAPTIVE_SWEEP_FREQUENCY_DOMAIN_ONLY,
    DIRICHLET_NOT_FULLWAVE_SOURCE,
    ITERATIVE_SOLVER_DIRECT_ONLY_PATHS,
    NEUMANN_FLUX_NOT_USED,
    NO_ANIMATION_AT_DC,
    PORTS_PML_NOT_STATIC,
    S_PARAMETERS_NEED_PORTS,
    check_options,
)
from fieldline_engine.errors import InvalidInput
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane

PORT = {"useWavePorts": True, "wavePorts": [{"portID": 1, "faces": [1], "mode": "TE10"}]}


def test_time_domain_refuses_the_pml():
    with pytest.raises(
        InvalidInput, match=r"radial PML \(useRadialPML\) is not available in the time-domain"
    ):
        check_options({"useRadialPML": True}, "em-time")
    # resistive impedance walls are honoured there (em/transient/job.py)
    assert (
        check_options(
            {"impedanceConditions": [{"faces": [1], "impedance": {"real": 50, "imag": 0}}]}, "em-time"
        )
        == []
    )


def test_eigen_refuses_ports_and_pml():
    with pytest.raises(InvalidInput, match="Wave ports are not available in the eigenmode"):
        check_options(PORT, "em-eigen")
    with pytest.raises(InvalidInput, match="eigenmode"):
        check_options({"useRadialPML": True}, "em-eigen")
    # ports switched off (or none listed) are no ports
    assert check_options({**PORT, "useWavePorts": False}, "em-eigen") == []


def test_output_options_left_out_are_warned_about():
    assert check_options({"gridFieldsEnabled": True}, "fullwave") == []  # sampled there
    assert check_options({"gridFieldsEnabled": True}, "em-eigen") == []  # sampled there
    assert check_options({"gridFieldsEnabled": True}, "em-time") == []  # the final state is sampled
    assert check_options({"useCurvedGeometry": True}, "em-time") == []  # curved there too
    assert check_options({"useRadialPML": True}, "static") == [PORTS_PML_NOT_STATIC]
    assert check_options({"gridFieldsEnabled": True, "useCurvedMesh": True}, "static") == []
    assert check_options({}, "fullwave") == []
    # full-wave: Dirichlet faces are PEC whatever their voltage, node voltages are not used
    assert check_options({"dirichletConditions": {"3": 1.0}}, "fullwave") == [DIRICHLET_NOT_FULLWAVE_SOURCE]
    face_groups = {
        "dirichletFaceConditions": [{"faces": [1], "voltage": 0.0}, {"faces": [2], "voltage": 5.0}]
    }
    assert check_options(face_groups, "fullwave") == [DIRICHLET_NOT_FULLWAVE_SOURCE]
    assert check_options({"dirichletFaceConditions": [{"faces": [1], "voltage": 0.0}]}, "fullwave") == []
    assert check_options(face_groups, "static") == []
    # a static field has no phase to animate; a quasi-static one (frequency > 0) has
    assert check_options({"animate": True}, "static") == [NO_ANIMATION_AT_DC]
    assert check_options({"animate": True, "frequency": 1e6}, "static") == []
    # Neumann faces are PMC off the static path: a flux there is not used
    pmc = {"neumannConditions": [{"faces": [1], "flux": 0.0}]}
    charged = {"neumannConditions": [{"faces": [1], "flux": 2.5}]}
    assert check_options(pmc, "fullwave") == []
    for path in ("fullwave", "em-time", "em-eigen"):
        assert check_options(charged, path) == [NEUMANN_FLUX_NOT_USED]
    assert check_options(charged, "static") == []
    # an iterative solver choice steers the static, full-wave and eigenmode solvers, not time-domain runs
    assert check_options({"linearSolver": "gmres-bddc"}, "fullwave") == []
    assert check_options({"linearSolver": "gmres-bddc"}, "em-eigen") == []
    assert check_options({"linearSolver": "cg-amg"}, "em-time") == [ITERATIVE_SOLVER_DIRECT_ONLY_PATHS]
    assert check_options({"linearSolver": "direct"}, "em-time") == []
    assert check_options({"linearSolver": "cg-bddc"}, "static") == []
    # S-parameters need wave ports on a full-wave run (with ports and a sweep, the job is full-wave)
    assert check_options({"calculateSParameters": True}, "static") == [S_PARAMETERS_NEED_PORTS]
    assert check_options({"extractSParameters": True}, "em-eigen") == [S_PARAMETERS_NEED_PORTS]
    # the adaptive (reduced-order) sweep is a frequency-domain method
    adaptive = {"calculateSParameters": True, "sParamSweepType": "adaptive"}
    assert check_options(adaptive, "em-time") == [ADAPTIVE_SWEEP_FREQUENCY_DOMAIN_ONLY]
    assert check_options(adaptive, "fullwave") == []


def test_warnings_join_the_solver_warnings():
    from fieldline_engine.mesh.tet_model import model_from_mesh_data

    model = model_from_mesh_data(box_mesh((1, 1, 1), (1, 1, 1)))
    solution = Solution(extras={"solver_info": {"warnings": ["own"]}}, warnings=["left out"])
    results = results_from_solution(model, solution)
    assert results["solver_info"]["warnings"] == ["own", "left out"]


def _write(tmp_path, mesh, config):
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))


def test_time_domain_job_with_a_reactive_impedance_wall_is_refused(engine, tmp_path):
    mesh = box_mesh((0.02, 0.01, 0.01), (2, 1, 1))
    wall = faces_on_plane(mesh, 0, 0.02)
    for condition in (
        {"impedance": {"real": 50, "imag": 20}},
        {"impedance": {"real": 0, "imag": 0}, "conductivity": 5.8e7},
    ):
        config = {
            "analysisType": "em",
            "transient": True,
            "impedanceConditions": [{"faces": wall, **condition}],
        }
        _write(tmp_path, mesh, config)
        final = engine("solve", tmp_path)[-1]
        print("refusal:", final.get("message"))
        assert final["event"] == "error" and final["code"] == "invalid_input"
        assert "takes a resistive wall only" in final["message"]
        assert not (tmp_path / "results.json").exists()


def test_static_job_verbose_log_and_left_out_pml(engine, tmp_path):
    mesh = box_mesh((0.02, 0.004, 0.002), (4, 1, 1))
    config = {
        "analysisType": "em",
        "dirichletFaceConditions": [
            {"faces": faces_on_plane(mesh, 0, 0.0), "voltage": 0.0},
            {"faces": faces_on_plane(mesh, 0, 0.02), "voltage": 1.0},
        ],
        "useRadialPML": True,  # frequency 0: the static solver runs, the PML does not apply
        "verbose": True,
    }
    _write(tmp_path, mesh, config)
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    info = json.loads((tmp_path / "results.json").read_text())["solver_info"]
    assert PORTS_PML_NOT_STATIC in info["warnings"]
    log = info["log"]
    assert any("Reading model" in line for line in log)
    assert any("[warning]" in line and "radial PML" in line for line in log)
    assert any(e["event"] == "log" and e.get("level") == "warning" for e in events)

    _write(tmp_path, mesh, {**config, "verbose": False, "useRadialPML": False})
    assert engine("solve", tmp_path)[-1]["event"] == "done"
    info = json.loads((tmp_path / "results.json").read_text())["solver_info"]
    assert "log" not in info and "warnings" not in info


def test_grid_points_beyond_the_pml_sphere_count_as_outside():
    import ngsolve as ng
    import numpy as np
    from netgen.csg import unit_cube

    from fieldline_engine.post.grid_fields import grid_section

    mesh = ng.Mesh(unit_cube.GenerateMesh(maxh=0.5))
    vertices = np.array([[0, 0, 0], [1, 1, 1]], dtype=float)
    config = {"gridResolution": [5, 5, 5], "gridPaddingFactor": 0.0}
    fields = {"phi": ng.x + 1}
    full, _ = grid_section(mesh, vertices, 1.0, config, fields)
    assert full["inside_count"] == 125
    centre, radius = np.array([0.5, 0.5, 0.5]), 0.45
    cut, _ = grid_section(mesh, vertices, 1.0, config, fields, (centre, radius))
    axis = np.linspace(0, 1, 5)
    pts = np.stack(np.meshgrid(axis, axis, axis, indexing="ij"), axis=-1).reshape(-1, 3)
    within = np.linalg.norm(pts - centre, axis=1) <= radius
    assert cut["inside_count"] == int(within.sum()) < 125
    phi = np.asarray(cut["fields"]["phi"])
    assert np.all(phi[~within] == 0) and phi[within] == pytest.approx(pts[within, 0] + 1)
