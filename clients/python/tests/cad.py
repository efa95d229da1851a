"""STEP models for the tests, written by gmsh (OpenCascade) in the engine's environment."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import ENGINE_PYTHON

_BOX = """
import gmsh, sys
gmsh.initialize(); gmsh.option.setNumber('General.Terminal', 0)
gmsh.option.setString('Geometry.OCCTargetUnit', 'MM')
gmsh.model.add('box')
gmsh.model.occ.addBox(0, 0, 0, {dx}, {dy}, {dz})
gmsh.model.occ.synchronize()
gmsh.write(sys.argv[1])
gmsh.finalize()
"""


def box_step(directory: Path, name: str, dx: float, dy: float, dz: float) -> Path:
    """A box [0,dx]×[0,dy]×[0,dz] in mm as STEP."""
    path = directory / name
    if not path.exists():
        subprocess.run(
            [str(ENGINE_PYTHON), "-c", _BOX.format(dx=dx, dy=dy, dz=dz), str(path)],
            check=True,
            capture_output=True,
        )
    return path
