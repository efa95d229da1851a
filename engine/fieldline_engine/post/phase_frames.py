"""Phase animation of a time-harmonic (phasor) field: frame k shows Re(F·e^{jθk}), θk = 360°·k/N."""

from typing import Any

import numpy as np

from fieldline_engine.post.compact import round_significant


def phase_frames(
    frames: int,
    e_vertices: np.ndarray,
    h_vertices: np.ndarray | None,
    potential: np.ndarray,
) -> dict[str, Any]:
    data = []
    for k in range(frames):
        theta = 2.0 * np.pi * k / frames
        rot = np.exp(1j * theta)
        frame: dict[str, Any] = {
            "phase_deg": 360.0 * k / frames,
            "e_magnitudes": round_significant(np.linalg.norm((e_vertices * rot).real, axis=1)),
            "potential": round_significant((potential * rot).real),
        }
        if h_vertices is not None:
            frame["h_magnitudes"] = round_significant(np.linalg.norm((h_vertices * rot).real, axis=1))
        data.append(frame)
    return {"type": "phase", "frames": frames, "data": data}
