"""Results as numpy arrays: the named-field catalogue (docs/multiphysics.md §1), quantities, S-parameters,
from results.json (float64) or results.bin (float32, compact: docs/results-binary.md)."""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# Spec 001 EM keys, for results files written before the `fields` catalogue (docs/multiphysics.md §1).
_LEGACY_EM = {
    "potential": ("potential", "Potential", "V", "scalar"),
    "efields": ("electric_field", "Electric field", "V/m", "vector"),
    "hfields": ("magnetic_field", "Magnetic field", "A/m", "vector"),
}
_V1_ARRAYS = {"potential": "potential", "efields": "electric_field", "hfields": "magnetic_field"}


@dataclass(frozen=True)
class FieldInfo:
    """A catalogue entry without its data: label, SI unit, kind (scalar/vector/tensor), vertex or cell."""

    name: str
    label: str
    unit: str | None
    kind: str | None
    location: str
    complex: bool
    role: str | None = None


@dataclass
class Results:
    """A completed analysis: fields by catalogue name, quantities, S-parameters and the mesh they live on.

    ``fields[name]`` is an array of n (scalar), n×3 (vector) or n×6 (tensor, Voigt xx yy zz xy yz xz)
    values, one per vertex or per tetrahedron (``field_info[name].location``); complex phasors
    (e^{+jωt}) are complex arrays. Vertices are in the model's length unit ``units``.
    """

    fields: dict[str, np.ndarray]
    field_info: dict[str, FieldInfo]
    quantities: dict[str, Any]
    s_parameters: dict[str, Any] | None
    vertices: np.ndarray
    triangles: np.ndarray
    tetrahedra: np.ndarray
    tetrahedron_regions: np.ndarray | None
    region_names: list[str]
    units: str
    solver_info: dict[str, Any] = field(default_factory=dict)
    raw: dict[str, Any] | None = None

    def __getitem__(self, name: str) -> np.ndarray:
        return self.fields[name]

    @property
    def frequencies(self) -> np.ndarray:
        """The S-parameter sweep's frequencies (Hz); empty without S-parameters."""
        return np.asarray((self.s_parameters or {}).get("frequencies") or [], dtype=np.float64)

    def s_matrix(self) -> np.ndarray:
        """S-parameters as a complex array [frequency, row, column] (S21 is ``s_matrix()[:, 1, 0]``)."""
        matrix = (self.s_parameters or {}).get("matrix")
        if not matrix:
            raise KeyError("these results have no S-parameters")
        pairs = np.asarray(matrix, dtype=np.float64)
        return pairs[..., 0] + 1j * pairs[..., 1]

    def magnitude(self, name: str) -> np.ndarray:
        """|v| per entry of a vector field (the modulus of a complex one)."""
        values = self.fields[name]
        return np.linalg.norm(np.abs(values), axis=-1) if values.ndim == 2 else np.abs(values)


def _array(values: Any, dtype: Any = np.float64) -> np.ndarray:
    return np.asarray(values if values is not None else [], dtype=dtype)


def _dense(entry: Any, n: int) -> np.ndarray:
    """The spec's {format: dense|sparse, data, size} (or a plain list) as a dense array."""
    if isinstance(entry, dict) and "data" in entry:
        data = entry["data"]
        if isinstance(data, dict):
            size = int(entry.get("size") or n)
            sample = next(iter(data.values()), 0.0)
            width = len(sample) if isinstance(sample, (list, tuple)) else None
            out = np.zeros((size, width) if width else size)
            for key, value in data.items():
                out[int(key)] = value
            return out
        return _array(data)
    return _array(entry)


def results_from_json(doc: dict[str, Any]) -> Results:
    """Results from results.json (the download, or a completed status reply's `results`)."""
    nested = doc.get("results")
    body: dict[str, Any] = nested if isinstance(nested, dict) and "vertices" not in doc else doc
    inner = body.get("fea_results")
    if isinstance(inner, dict):
        body = inner
    vertices = _array(body.get("vertices")).reshape(-1, 3)
    faces = [f[:3] for f in body.get("faces") or [] if len(f) >= 3]
    fields: dict[str, np.ndarray] = {}
    info: dict[str, FieldInfo] = {}
    for name, entry in (body.get("fields") or {}).items():
        values = _array(entry.get("data"))
        if entry.get("imag") is not None:
            values = values + 1j * _array(entry["imag"])
        fields[name] = values
        info[name] = FieldInfo(
            name=name,
            label=str(entry.get("label") or name),
            unit=entry.get("unit"),
            kind=entry.get("kind"),
            location=str(entry.get("location") or "vertex"),
            complex=bool(entry.get("complex")),
            role=entry.get("role"),
        )
    for key, (name, label, unit, kind) in _LEGACY_EM.items():
        if name not in fields and body.get(key) is not None:
            fields[name] = _dense(body[key], len(vertices))
            info[name] = FieldInfo(name, label, unit, kind, "vertex", False)
    regions = body.get("tetrahedron_regions")
    return Results(
        fields=fields,
        field_info=info,
        quantities=dict(body.get("quantities") or {}),
        s_parameters=body.get("s_parameters"),
        vertices=vertices,
        triangles=np.asarray(faces, dtype=np.int64).reshape(-1, 3),
        tetrahedra=np.asarray(body.get("tetrahedra") or [], dtype=np.int64).reshape(-1, 4),
        tetrahedron_regions=np.asarray(regions, dtype=np.int64) if regions is not None else None,
        region_names=list(body.get("region_names") or []),
        units=str(body.get("units") or "m"),
        solver_info=dict(body.get("solver_info") or {}),
        raw=body,
    )


def decode_results_binary(data: bytes) -> Results:
    """Results from results.bin (format versions 1 and 2); quantities are not in it (see results_from_json)."""
    if data[:4] != b"FLRB":
        raise ValueError("not a Fieldline results.bin (bad magic)")
    version, header_length = struct.unpack_from("<II", data, 4)
    if version not in (1, 2):
        raise ValueError(f"results.bin format version {version} is newer than this client; upgrade it")
    header = json.loads(data[12 : 12 + header_length].decode("utf-8"))
    arrays: dict[str, np.ndarray] = {}
    for name, spec in header["arrays"].items():
        dtype = np.dtype("<f4") if spec["dtype"] == "float32" else np.dtype("<u4")
        count = spec["byte_length"] // dtype.itemsize
        arrays[name] = np.frombuffer(data, dtype=dtype, count=count, offset=spec["offset"]).reshape(
            spec["shape"]
        )
    fields: dict[str, np.ndarray] = {}
    info: dict[str, FieldInfo] = {}
    for name, meta in (header.get("fields") or {}).items():
        values = arrays.get(f"fields/{name}")
        if values is None:
            continue
        imag = arrays.get(f"fields/{name}/imag")
        fields[name] = values + 1j * imag if imag is not None else values
        info[name] = FieldInfo(
            name=name,
            label=str(meta.get("label") or name),
            unit=meta.get("unit"),
            kind=meta.get("kind"),
            location=str(meta.get("location") or "vertex"),
            complex=bool(meta.get("complex")),
            role=meta.get("role"),
        )
    for key, name in _V1_ARRAYS.items():
        if name not in fields and key in arrays:
            _, label, unit, kind = _LEGACY_EM[key]
            fields[name] = arrays[key]
            info[name] = FieldInfo(name, label, unit, kind, "vertex", False)
    regions = arrays.get("tetrahedron_regions")
    return Results(
        fields=fields,
        field_info=info,
        quantities={},
        s_parameters=None,
        vertices=arrays.get("vertices", np.zeros((0, 3), np.float32)),
        triangles=arrays.get("triangles", np.zeros((0, 3), np.uint32)),
        tetrahedra=arrays.get("tetrahedra", np.zeros((0, 4), np.uint32)),
        tetrahedron_regions=regions,
        region_names=list(header.get("region_names") or []),
        units=str(header.get("units") or "m"),
    )


def to_meshio(results: Results) -> Any:
    """A meshio.Mesh of the tetrahedra (or the surface when there are none) with every field attached.

    Vertex fields become point data, cell fields cell data; complex fields are split into `<name>_real`
    and `<name>_imag`. Points stay in the model's length unit (`results.units`).
    """
    import meshio  # type: ignore[import-untyped]

    if len(results.tetrahedra):
        cells = [("tetra", np.asarray(results.tetrahedra, dtype=np.int64))]
        n_cells = len(results.tetrahedra)
    else:
        cells = [("triangle", np.asarray(results.triangles, dtype=np.int64))]
        n_cells = len(results.triangles)
    point_data: dict[str, np.ndarray] = {}
    cell_data: dict[str, list[np.ndarray]] = {}
    for name, values in results.fields.items():
        parts = (
            {f"{name}_real": values.real, f"{name}_imag": values.imag}
            if np.iscomplexobj(values)
            else {name: values}
        )
        location = results.field_info[name].location if name in results.field_info else "vertex"
        for key, part in parts.items():
            part = np.asarray(part, dtype=np.float64)
            if location == "cell" and len(part) == n_cells:
                cell_data[key] = [part]
            elif len(part) == len(results.vertices):
                point_data[key] = part
    if results.tetrahedron_regions is not None and len(results.tetrahedra):
        cell_data["region"] = [np.asarray(results.tetrahedron_regions, dtype=np.int64)]
    return meshio.Mesh(
        points=np.asarray(results.vertices, dtype=np.float64),
        cells=cells,
        point_data=point_data,
        cell_data=cell_data,
    )
