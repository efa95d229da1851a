"""Parallel-plate capacitor: the capacitance of a dielectric slab between two electrodes.

    FIELDLINE_URL=… FIELDLINE_TOKEN=fl_… python capacitor.py plate.step

The model is a box (STEP, mm) whose bottom face (z = 0) is grounded and whose top face (z = thickness) is
at 1 V; the sides carry no charge. With those boundaries the field is uniform and C = ε0 εr A / d exactly.
"""

import json
import sys

import numpy as np

from fieldline import Client

EPS0 = 8.854e-12
EPS_R = 4.4  # FR-4

with Client() as fl:
    part = fl.upload(sys.argv[1] if len(sys.argv) > 1 else "plate.step")
    mesh = fl.mesh(part, max_size=4)
    z = mesh.vertices[:, 2]
    bottom, top = mesh.faces_on_plane("z", z.min()), mesh.faces_on_plane("z", z.max())
    job = fl.run(
        mesh,
        {
            "analysisType": "em",
            "frequency": 0,
            "defaultPermittivity": EPS0 * EPS_R,
            "dirichletFaceConditions": [
                {"faces": bottom, "voltage": 0, "name": "ground"},
                {"faces": top, "voltage": 1, "name": "electrode"},
            ],
        },
    )
    results = job.results()

scale = {"mm": 1e-3, "cm": 1e-2, "m": 1.0, "in": 0.0254}[mesh.units]
span = np.ptp(mesh.vertices, axis=0) * scale
closed_form = EPS0 * EPS_R * span[0] * span[1] / span[2]
computed = results.quantities["capacitance_F"]
print(
    f"capacitance {computed * 1e12:.4f} pF, closed form {closed_form * 1e12:.4f} pF, "
    f"error {abs(computed - closed_form) / closed_form:.2e}",
    file=sys.stderr,
)
print(json.dumps({"job_id": job.id, "capacitance_F": computed, "closed_form_F": closed_form}))
