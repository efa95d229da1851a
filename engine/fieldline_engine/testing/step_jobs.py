"""STEP models through the engine's own job path, for the adaptive-refinement validation and bench: the
`mesh` command meshes the STEP as it does for an upload (face_patches: each triangle's CAD face), and `solve`
runs with the STEP attached as the server attaches it, so refined boundary vertices go onto the CAD faces."""

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from fieldline_engine.commands.mesh import run_mesh
from fieldline_engine.commands.solve import run_solve
from fieldline_engine.testing.shapes import write_step_shapes


class StepJob:
    """One STEP file (netgen.occ solids written with their names) meshed once, solved by any config."""

    def __init__(
        self, folder: Path, shapes: list[tuple[str, object]], units: str, mesh_config: dict[str, Any]
    ):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.step = write_step_shapes(folder / "model.step", shapes)
        self.source = {
            "inputs": [{"file": "source.step", "format": "step", "name": "model.step"}],
            "units": units,
        }
        job = self._job_dir("mesh")
        config = {"analysisType": "tetra-only", "meshingOnly": True, **mesh_config}
        (job / "job.json").write_text(
            json.dumps({"mesh_data": {"units": units}, "config": config, "source": self.source})
        )
        run_mesh(job)
        r = json.loads((job / "results.json").read_text())
        self.mesh: dict[str, Any] = {k: r[k] for k in ("vertices", "faces", "tetrahedra", "face_patches")}
        self.mesh["units"] = units

    def _job_dir(self, name: str) -> Path:
        job = self.folder / name
        job.mkdir()
        shutil.copy(self.step, job / "source.step")
        return job

    def faces_where(self, predicate) -> list[int]:
        """1-based ids of the uploaded faces whose three vertices satisfy `predicate` ((3, 3) points, model unit)."""
        v, f = np.asarray(self.mesh["vertices"]), np.asarray(self.mesh["faces"])
        return [i + 1 for i, tri in enumerate(f) if predicate(v[tri])]

    def solve(self, name: str, config: dict[str, Any]) -> dict[str, Any]:
        """results.json of a `solve` job on the meshed model with the STEP attached."""
        job = self._job_dir(name)
        (job / "job.json").write_text(
            json.dumps({"mesh_data": self.mesh, "source": self.source, "config": config})
        )
        run_solve(job)
        return json.loads((job / "results.json").read_text())
