"""A meshed STEP capacitor for API tests: `python -m fieldline_engine.testing.occ_capacitor [maxh_mm]`.

Builds a dielectric slab (10 × 8 × 1 mm) with OpenCascade, writes it as STEP, reads the STEP back, meshes
it with netgen and prints {mesh_data, groups: {top, bottom}, area_m2, gap_m} as JSON: face ids (1-based)
of the two electrode faces, so a test can submit two Dirichlet face groups the way a user picks them.
"""

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from netgen.occ import Box, OCCGeometry, Pnt

SIZE_MM = (10.0, 8.0, 1.0)


def capacitor_mesh_data(maxh_mm: float = 2.0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        step = Path(tmp) / "capacitor.step"
        Box(Pnt(0, 0, 0), Pnt(*SIZE_MM)).WriteStep(str(step))
        ngmesh = OCCGeometry(str(step)).GenerateMesh(maxh=maxh_mm)
    vertices = np.array([[p[0], p[1], p[2]] for p in ngmesh.Points()])
    faces = np.array([[v.nr - 1 for v in el.vertices] for el in ngmesh.Elements2D()])
    tets = np.array([[v.nr - 1 for v in el.vertices] for el in ngmesh.Elements3D()])
    z = vertices[faces][:, :, 2]
    ids = np.arange(1, len(faces) + 1)
    return {
        "mesh_data": {
            "vertices": vertices.tolist(),
            "faces": faces.tolist(),
            "tetrahedra": tets.tolist(),
            "units": "mm",
        },
        "groups": {
            "bottom": ids[np.all(np.abs(z) < 1e-9, axis=1)].tolist(),
            "top": ids[np.all(np.abs(z - SIZE_MM[2]) < 1e-9, axis=1)].tolist(),
        },
        "area_m2": SIZE_MM[0] * SIZE_MM[1] * 1e-6,
        "gap_m": SIZE_MM[2] * 1e-3,
    }


if __name__ == "__main__":
    json.dump(capacitor_mesh_data(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0), sys.stdout)
