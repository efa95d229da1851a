"""results.json from a `Solution`: the mesh section, solver_info, the named-field catalogue, quantities,
frames and the family's extras (docs/multiphysics.md §1–2). Built once here, not in each family."""

from typing import Any

import numpy as np

from fieldline_engine.core.fields import Field, Frames
from fieldline_engine.core.solution import Solution
from fieldline_engine.mesh.tet_model import TetModel


def _json_array(values: np.ndarray) -> np.ndarray:
    """Arrays stay numpy until written: io.job_files turns them into JSON lists, results.bin reads them
    as they are."""
    return np.ascontiguousarray(values, dtype=np.float64)


def field_entry(f: Field) -> dict[str, Any]:
    """A catalogue entry with its data: real part in `data`, imaginary part in `imag` for phasors."""
    entry = f.describe()
    entry["data"] = _json_array(f.values.real)
    if f.complex:
        entry["imag"] = _json_array(f.values.imag)
    return entry


def animation_entry(frames: Frames) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "frames": len(frames.frames),
        "axis": frames.axis,
        "unit": frames.unit,
        "frame_values": [float(v) for v in frames.values],
        "fields": frames.field_names,
        "data": [{name: _json_array(np.real(arr)) for name, arr in frame.items()} for frame in frames.frames],
    }
    if frames.axis in ("time", "phase"):
        entry["kind"] = frames.axis  # readers written before frames had an axis
    if frames.labels:
        entry["frame_labels"] = list(frames.labels)
    return entry


def mesh_section(model: TetModel) -> dict[str, Any]:
    """Geometry in the model's own length unit, as uploaded. NumPy arrays, like the fields: results.json writes
    them as they are and results.bin takes them without a round trip through Python lists."""
    return {
        "vertices": np.ascontiguousarray(model.vertices / model.unit_scale, dtype=np.float64),
        "faces": np.ascontiguousarray(model.faces, dtype=np.int64),
        "tetrahedra": np.ascontiguousarray(model.tetrahedra, dtype=np.int64),
        "tetrahedron_regions": np.ascontiguousarray(model.regions, dtype=np.int64),
        "region_names": model.region_names,
    }


def check_sizes(model: TetModel, solution: Solution) -> None:
    """A field's length must match its location; a mismatch is a bug in the family, caught before writing."""
    expected = {"vertex": model.nv, "cell": model.nt}
    for f in solution.fields:
        if f.size != expected[f.location]:
            raise AssertionError(
                f"field '{f.name}' has {f.size} entries, {f.location} fields need {expected[f.location]}"
            )


def results_from_solution(model: TetModel, solution: Solution) -> dict[str, Any]:
    check_sizes(model, solution)
    results: dict[str, Any] = {
        "solver_info": {"elements": model.nt, **solution.solver_info},
        **mesh_section(model),
        "fields": {f.name: field_entry(f) for f in solution.fields},
        "quantities": dict(solution.quantities),
    }
    if solution.animation is not None and solution.animation.frames:
        results["animation"] = animation_entry(solution.animation)
    # Family extras come last: the spec's EM keys, S-parameters, modes, time-domain info, grid.
    results.update(solution.extras)
    if solution.warnings:
        info = results["solver_info"]
        info["warnings"] = [*info.get("warnings", []), *solution.warnings]
    if solution.side_files:
        results["_side_files"] = dict(solution.side_files)  # popped by io.job_files.write_results
    return results
