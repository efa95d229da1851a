"""`results.bin`: the viewer's binary twin of results.json, so large results never travel as JSON text.

Layout (all integers little-endian; docs/results-binary.md is the reference):

    0   4 bytes   magic b"FLRB"
    4   uint32    format version (2)
    8   uint32    header length H in bytes
    12  H bytes   header: UTF-8 JSON, padded with spaces so the first array starts on a 16-byte boundary
    ... arrays    each at the absolute `offset` its header entry gives (a multiple of 16), little-endian

The header's `arrays` maps a name to {dtype, shape, offset, byte_length}. dtypes are float32 and uint32
(float32 is plenty for display; the JSON keeps float64 for analysis). Geometry: vertices (nv×3, model
units), triangles (nf×3, face id = row + 1), tetrahedra (nt×4), tetrahedron_regions (nt), triangle_regions
(nf). Fields by name (docs/multiphysics.md §3): `fields/<name>` (n, n×3 or n×6), `fields/<name>/imag` for
phasors, and per animation frame k `frames/<k>/<name>`; the header's `fields` holds each field's label,
unit, kind, location, complex flag and role, and `animation` the frames' axis.
"""

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

MAGIC = b"FLRB"
VERSION = 2
ALIGN = 16


def triangle_regions(faces: np.ndarray, tets: np.ndarray, regions: np.ndarray, nv: int) -> np.ndarray:
    """Body of the tetrahedron each surface triangle belongs to (the first one found for interfaces)."""
    if faces.size == 0 or tets.size == 0:
        return np.zeros(len(faces), dtype=np.uint32)
    local = np.array([[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]])
    tet_tris = np.sort(tets[:, local].reshape(-1, 3), axis=1).astype(np.int64)
    n = np.int64(max(nv, 1))
    tet_keys = (tet_tris[:, 0] * n + tet_tris[:, 1]) * n + tet_tris[:, 2]
    order = np.argsort(tet_keys, kind="stable")
    sorted_keys = tet_keys[order]
    face_sorted = np.sort(faces, axis=1).astype(np.int64)
    face_keys = (face_sorted[:, 0] * n + face_sorted[:, 1]) * n + face_sorted[:, 2]
    pos = np.clip(np.searchsorted(sorted_keys, face_keys), 0, len(sorted_keys) - 1)
    found = sorted_keys[pos] == face_keys
    tet_of_face = order[pos] // 4
    return np.where(found, regions[tet_of_face], 0).astype(np.uint32)


def _present(mapping: dict[str, Any], key: str, default: Any) -> Any:
    """mapping[key] unless missing or None (numpy arrays have no truth value, so no `or`)."""
    value = mapping.get(key)
    return default if value is None else value


def binary_arrays(
    results: dict[str, Any], length_unit: str | None = None
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and the header metadata for a results dict (core/results.py: geometry, `fields`, `animation`).

    `length_unit` is the model's unit (mesh_data.units): vertices stay in it, as in results.json.
    """
    vertices = np.asarray(_present(results, "vertices", []), dtype=np.float32).reshape(-1, 3)
    nv = len(vertices)
    arrays: dict[str, np.ndarray] = {"vertices": vertices}
    faces = _present(results, "faces", [])
    if isinstance(faces, np.ndarray) and faces.ndim == 2 and faces.shape[1] == 3:
        tris = faces.astype(np.uint32)
    else:
        tris = np.asarray([f[:3] for f in faces if len(f) >= 3], dtype=np.uint32).reshape(-1, 3)
    arrays["triangles"] = tris
    tets = np.asarray(_present(results, "tetrahedra", []), dtype=np.uint32).reshape(-1, 4)
    if len(tets):
        arrays["tetrahedra"] = tets
        regions = np.asarray(
            _present(results, "tetrahedron_regions", np.zeros(len(tets))), dtype=np.uint32
        ).reshape(-1)
        if len(regions) == len(tets):
            arrays["tetrahedron_regions"] = regions
            arrays["triangle_regions"] = triangle_regions(tris, tets, regions, nv)

    catalogue: dict[str, Any] = {}
    for name, entry in (results.get("fields") or {}).items():
        catalogue[name] = {k: v for k, v in entry.items() if k not in ("data", "imag")}
        arrays[f"fields/{name}"] = np.asarray(entry["data"], dtype=np.float32)
        if entry.get("imag") is not None:
            arrays[f"fields/{name}/imag"] = np.asarray(entry["imag"], dtype=np.float32)

    meta: dict[str, Any] = {
        "units": length_unit or "m",
        "region_names": list(results.get("region_names") or []),
        "fields": catalogue,
        "animation": None,
    }
    animation = results.get("animation")
    if isinstance(animation, dict) and animation.get("data"):
        for k, frame in enumerate(animation["data"]):
            for name, values in frame.items():
                arrays[f"frames/{k}/{name}"] = np.asarray(values, dtype=np.float32)
        count = len(animation["data"])
        meta["animation"] = {
            "axis": animation.get("axis", "time"),
            "unit": animation.get("unit"),
            "frame_count": count,
            "frame_values": [float(v) for v in animation.get("frame_values") or []][:count],
            "frame_labels": list(animation.get("frame_labels") or []),
            "fields": list(animation.get("fields") or []),
        }
    return arrays, meta


def encode_results_binary(results: dict[str, Any], length_unit: str | None = None) -> bytes:
    arrays, meta = binary_arrays(results, length_unit)
    entries: dict[str, dict[str, Any]] = {}
    payloads: list[tuple[int, bytes]] = []
    # The header's length depends on the offsets it holds: lay out arrays after a generous estimate
    # of its size, then pad the real header up to that point.
    names = list(arrays)
    estimate = 12 + len(json.dumps(meta)) + 160 * len(names) + 256
    cursor = -(-estimate // ALIGN) * ALIGN
    for name in names:
        arr = np.ascontiguousarray(arrays[name])
        dtype = "float32" if arr.dtype.kind == "f" else "uint32"
        data = arr.astype("<f4" if dtype == "float32" else "<u4", copy=False).tobytes()
        entries[name] = {"dtype": dtype, "shape": list(arr.shape), "offset": cursor, "byte_length": len(data)}
        payloads.append((cursor, data))
        cursor += -(-len(data) // ALIGN) * ALIGN
    header = json.dumps(
        {"format": "fieldline-results-binary", "version": VERSION, **meta, "arrays": entries},
        separators=(",", ":"),
    ).encode("utf-8")
    data_start = payloads[0][0] if payloads else -(-(12 + len(header)) // ALIGN) * ALIGN
    if 12 + len(header) > data_start:
        raise AssertionError("results.bin header estimate too small")
    header = header + b" " * (data_start - 12 - len(header))
    out = bytearray(cursor if payloads else data_start)
    out[0:4] = MAGIC
    out[4:8] = VERSION.to_bytes(4, "little")
    out[8:12] = len(header).to_bytes(4, "little")
    out[12 : 12 + len(header)] = header
    for offset, data in payloads:
        out[offset : offset + len(data)] = data
    return bytes(out)


def write_results_binary(job_dir: Path, results: dict[str, Any], length_unit: str | None = None) -> Path:
    """Writes results.bin atomically next to results.json."""
    path = job_dir / "results.bin"
    tmp = path.with_suffix(".bin.tmp")
    tmp.write_bytes(encode_results_binary(results, length_unit))
    os.replace(tmp, path)
    return path
