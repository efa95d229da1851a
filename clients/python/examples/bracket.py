"""A cantilever bracket's maximum stress and tip deflection.

    FIELDLINE_URL=… FIELDLINE_TOKEN=fl_… python bracket.py bar.step

The model is a bar along x (STEP, mm), clamped at x = 0 and loaded with 200 N downwards (−z) on its free
end. Beam theory for comparison: root bending stress 6 F L / (b h²), tip deflection F L³ / (3 E I).
"""

import json
import sys

import numpy as np

from fieldline import Client

FORCE_N = 200.0
E_PA = 200e9  # structural steel in the material library

with Client() as fl:
    part = fl.upload(sys.argv[1] if len(sys.argv) > 1 else "bar.step")
    mesh = fl.mesh(part, max_size=4)
    x = mesh.vertices[:, 0]
    job = fl.run(
        mesh,
        {
            "analysisType": "structural",
            "meshOrder": 2,
            "bodyMaterials": [{"region": 0, "material": "steel", "youngsModulus": E_PA, "poissonRatio": 0.3}],
            "fixedSupports": [{"faces": mesh.faces_on_plane("x", x.min()), "name": "wall"}],
            "forceLoads": [{"faces": mesh.faces_on_plane("x", x.max()), "force": [0, 0, -FORCE_N]}],
        },
    )
    results = job.results()

scale = {"mm": 1e-3, "cm": 1e-2, "m": 1.0, "in": 0.0254}[mesh.units]
length, b, h = np.ptp(mesh.vertices, axis=0) * scale
max_stress = float(results.fields["von_mises"].max())
tip = np.isclose(results.vertices[:, 0], results.vertices[:, 0].max())
tip_deflection = float(-results.fields["displacement"][tip, 2].mean())
beam_stress = 6 * FORCE_N * length / (b * h**2)
beam_deflection = FORCE_N * length**3 / (3 * E_PA * b * h**3 / 12)
print(
    f"max von Mises {max_stress / 1e6:.2f} MPa (beam theory at the root {beam_stress / 1e6:.2f} MPa); "
    f"tip deflection {tip_deflection * 1e6:.2f} µm (beam theory {beam_deflection * 1e6:.2f} µm)",
    file=sys.stderr,
)
print(
    json.dumps(
        {
            "job_id": job.id,
            "max_von_mises_Pa": max_stress,
            "beam_root_stress_Pa": beam_stress,
            "tip_deflection_m": tip_deflection,
            "beam_tip_deflection_m": beam_deflection,
        }
    )
)
