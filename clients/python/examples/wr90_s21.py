"""WR-90 waveguide: S21 over 9–11 GHz, compared with the empty guide's e^{−jβL}; plotted if matplotlib is there.

    FIELDLINE_URL=… FIELDLINE_TOKEN=fl_… python wr90_s21.py wr90.step

The model is an air-filled box 22.86 × 10.16 × L mm (STEP) with TE10 wave ports on its two ends (z = 0 and
z = L). Writes wr90_s21.s2p (Touchstone) and wr90_s21.png.
"""

import json
import sys

import numpy as np

from fieldline import Client

C0 = 299_792_458.0

with Client() as fl:
    part = fl.upload(sys.argv[1] if len(sys.argv) > 1 else "wr90.step")
    mesh = fl.mesh(part, max_size=6)
    z = mesh.vertices[:, 2]
    job = fl.run(
        mesh,
        {
            "analysisType": "em",
            "frequency": 10e9,
            "meshOrder": 2,
            "useWavePorts": True,
            "wavePorts": [
                {"portID": 1, "faces": mesh.faces_on_plane("z", z.min()), "mode": "TE10"},
                {"portID": 2, "faces": mesh.faces_on_plane("z", z.max()), "mode": "TE10", "amplitude": 0},
            ],
            "calculateSParameters": True,
            "sParamFreqMin": 9e9,
            "sParamFreqMax": 11e9,
            "sParamNumPoints": 3,
        },
    )
    results = job.results()
    job.download("touchstone", "wr90_s21.s2p")

scale = {"mm": 1e-3, "cm": 1e-2, "m": 1.0, "in": 0.0254}[mesh.units]
a, _, length = np.ptp(mesh.vertices, axis=0) * scale
f = results.frequencies
s21 = results.s_matrix()[:, 1, 0]
beta = np.sqrt((2 * np.pi * f / C0) ** 2 - (np.pi / a) ** 2)
exact = np.exp(-1j * beta * length)
phase_error_deg = np.degrees(np.angle(s21 / exact))
for fi, s, err in zip(f, s21, phase_error_deg, strict=True):
    print(
        f"{fi / 1e9:5.2f} GHz  |S21| {abs(s):.4f}  phase {np.degrees(np.angle(s)):8.2f}°  (error {err:+.2f}°)",
        file=sys.stderr,
    )
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot(f / 1e9, np.degrees(np.angle(s21)), "o-", label="Fieldline S21")
    ax.plot(f / 1e9, np.degrees(np.angle(exact)), "--", label="e^{-jβL}")
    ax.set_xlabel("frequency (GHz)")
    ax.set_ylabel("phase (°)")
    ax.legend()
    fig.savefig("wr90_s21.png", dpi=100)
except ImportError:
    print("matplotlib is not installed: no plot", file=sys.stderr)
print(
    json.dumps(
        {
            "job_id": job.id,
            "frequencies_Hz": f.tolist(),
            "s21_magnitude": np.abs(s21).tolist(),
            "s21_phase_error_deg": phase_error_deg.tolist(),
        }
    )
)
