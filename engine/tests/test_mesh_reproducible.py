"""The same upload with the same options meshes to the same mesh, whatever the job's thread count: gmsh
with two threads gave a different bracket mesh on five of six runs (1,808–1,858 tetrahedra), so a re-run or
a study's remeshed points differed by noise. Meshing runs on one thread unless FIELDLINE_MESH_THREADS
says otherwise (fieldline_engine/limits.py)."""

import hashlib

import numpy as np
from netgen import occ

from fieldline_engine.testing.step_jobs import StepJob


def _bracket():
    base = occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(60, 30, 6))
    upright = occ.Box(occ.Pnt(54, 0, 0), occ.Pnt(60, 30, 36))
    body = base + upright
    for x in (15, 45):
        body = body - occ.Cylinder(occ.Pnt(x, 15, -1), occ.Z, r=4, h=8)
    return body


def _digest(job: StepJob) -> str:
    v = np.asarray(job.mesh["vertices"], dtype=np.float64)
    t = np.asarray(job.mesh["tetrahedra"], dtype=np.int64)
    return hashlib.sha256(v.tobytes() + t.tobytes()).hexdigest()[:16]


def test_a_step_model_meshes_identically_on_every_run_with_two_job_threads(tmp_path, monkeypatch):
    monkeypatch.setenv("FIELDLINE_THREADS", "2")
    monkeypatch.delenv("FIELDLINE_MESH_THREADS", raising=False)
    runs = [
        StepJob(tmp_path / f"run{i}", [("Bracket", _bracket())], "mm", {"meshMaxSize": 8.0}) for i in range(3)
    ]
    digests = [_digest(j) for j in runs]
    print(f"three meshings: {[len(j.mesh['tetrahedra']) for j in runs]} tetrahedra, digests {digests}")
    assert len(set(digests)) == 1
