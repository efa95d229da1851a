"""Writes a synthetic 1M-tetrahedron result for the viewer benchmark: results.bin (engine writer) and,
as the peer, the same result as results.json text.

A box of n³ cells, six tetrahedra each (n = 55 → 998,250 tetrahedra), with an analytic dipole-like field
and `frames` animation frames (phase frames of the same field). Run: .venv/bin/python bench/viewer/make_result.py
"""

import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "engine"))

from fieldline_engine.post.results_binary import encode_results_binary

KUHN = np.array(
    [[0, 1, 3, 7], [0, 1, 5, 7], [0, 2, 3, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 6, 7]]
)


def box(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs = np.linspace(-1.0, 1.0, n + 1)
    X, Y, Z = np.meshgrid(xs, xs, xs, indexing="ij")
    vertices = np.stack([X.ravel(), Y.ravel(), Z.ravel()], axis=1)
    I, J, K = (
        a.ravel()
        for a in np.meshgrid(np.arange(n), np.arange(n), np.arange(n), indexing="ij")
    )

    def vid(i, j, k):
        return (i * (n + 1) + j) * (n + 1) + k

    corners = np.stack(
        [vid(I + (b & 1), J + ((b >> 1) & 1), K + ((b >> 2) & 1)) for b in range(8)],
        axis=1,
    )
    tets = corners[:, KUHN].reshape(-1, 4)
    faces = tets[:, [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]]].reshape(-1, 3)
    keys = np.sort(faces, axis=1)
    _, idx, counts = np.unique(keys, axis=0, return_index=True, return_counts=True)
    return vertices, tets, faces[np.sort(idx[counts == 1])]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 55
    frames = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    out = ROOT / "bench" / "viewer" / "out"
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    vertices, tets, faces = box(n)
    # A dipole-like E field (two opposite charges off-centre) and a circulating H field.
    p1 = np.array([0.0, 0.0, 0.45])
    p2 = np.array([0.0, 0.0, -0.45])
    d1 = vertices - p1
    d2 = vertices - p2
    r1 = np.linalg.norm(d1, axis=1, keepdims=True) ** 3 + 0.02
    r2 = np.linalg.norm(d2, axis=1, keepdims=True) ** 3 + 0.02
    e = 1e3 * (d1 / r1 - d2 / r2)
    h = (
        np.stack([-vertices[:, 1], vertices[:, 0], np.zeros(len(vertices))], axis=1)
        * 50.0
    )
    results = {
        "vertices": vertices,
        "faces": faces,
        "tetrahedra": tets,
        "tetrahedron_regions": (vertices[tets].mean(axis=1)[:, 0] > 0).astype(
            np.uint32
        ),
        "region_names": ["left", "right"],
        "fields": {
            "electric_field": {
                "label": "Electric field",
                "unit": "V/m",
                "kind": "vector",
                "location": "vertex",
                "complex": False,
                "data": e,
            },
            "magnetic_field": {
                "label": "Magnetic field",
                "unit": "A/m",
                "kind": "vector",
                "location": "vertex",
                "complex": False,
                "data": h,
            },
        },
        "animation": {
            "frames": frames,
            "axis": "phase",
            "unit": "deg",
            "frame_values": [360.0 * k / frames for k in range(frames)],
            "fields": ["electric_field", "magnetic_field"],
            "data": [
                {
                    "electric_field": e * np.cos(2 * np.pi * k / frames),
                    "magnetic_field": h * np.sin(2 * np.pi * k / frames),
                }
                for k in range(frames)
            ],
        },
    }
    (out / "result.bin").write_bytes(encode_results_binary(results, "mm"))
    t1 = time.perf_counter()
    # The peer: the same result as the spec's JSON text (no animation frames, to keep it writable).
    as_json = {
        "solver_info": {
            "elements": len(tets),
            "matrix_size": 0,
            "non_zeros": 0,
            "frequency": 0,
        },
        "computation_time": 0,
        "vertices": vertices.tolist(),
        "faces": faces.tolist(),
        "tetrahedra": tets.tolist(),
        "field_magnitudes": {
            "e_magnitudes": {
                "format": "dense",
                "data": np.linalg.norm(e, axis=1).tolist(),
                "size": len(vertices),
            },
        },
        "efields": {
            "format": "dense",
            "data": {str(i): v for i, v in enumerate(e.tolist())},
            "size": len(vertices),
        },
        "length_unit": "mm",
    }
    (out / "result.json").write_text(json.dumps(as_json, separators=(",", ":")))
    print(
        json.dumps(
            {
                "tetrahedra": len(tets),
                "vertices": len(vertices),
                "surface_triangles": len(faces),
                "frames": frames,
                "bin_bytes": (out / "result.bin").stat().st_size,
                "json_bytes": (out / "result.json").stat().st_size,
                "bin_write_s": round(t1 - t0, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
