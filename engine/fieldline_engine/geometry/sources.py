"""What a job's input files hold: CAD (STEP) files or triangle bodies (STL/OBJ), in one length unit.

ZIP archives are opened here (safely, archive.py); a model is either CAD or triangles, not a mix.
"""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fieldline_engine.errors import InvalidInput
from fieldline_engine.geometry.archive import ZipLimits, extract_zip
from fieldline_engine.geometry.formats import check_content
from fieldline_engine.geometry.mesh_io import SurfaceBody, read_obj, read_stl
from fieldline_engine.geometry.step_units import step_length_unit
from fieldline_engine.mesh.units import METRES_PER_UNIT

LENGTH_UNITS = tuple(METRES_PER_UNIT)


@dataclass
class InputFile:
    path: Path
    fmt: str  # step | stl | obj | zip
    name: str  # the name the user knows it by


@dataclass
class LoadedInput:
    units: str
    step_files: list[Path] = field(default_factory=list)
    bodies: list[SurfaceBody] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def is_cad(self) -> bool:
        return bool(self.step_files)


def input_files(job_dir: Path, raw: list[dict[str, Any]]) -> list[InputFile]:
    out = []
    for item in raw:
        rel = str(item.get("file", ""))
        path = (job_dir / rel).resolve()
        if job_dir.resolve() not in path.parents or not path.is_file():
            raise InvalidInput(f"Input file '{rel}' is missing from the job.")
        out.append(InputFile(path, str(item.get("format", "")), str(item.get("name") or path.name)))
    if not out:
        raise InvalidInput("The job names no input file.")
    return out


def load_inputs(
    files: list[InputFile], units: str | None, work_dir: Path, zip_limits: ZipLimits
) -> LoadedInput:
    """Checks every file's content against its claimed format and reads triangle bodies. STEP files are
    only checked here; gmsh reads them later. `units` applies to STL/OBJ (STEP files declare their own)."""
    mesh_units = (units or "mm").strip().lower()
    if mesh_units not in LENGTH_UNITS:
        raise InvalidInput(f"Unknown length unit '{units}'. Use one of: {', '.join(LENGTH_UNITS)}.")
    flat: list[InputFile] = []
    notes: list[str] = []
    for f in files:
        check_content(f.path, f.fmt, f.name)
        if f.fmt == "zip":
            extracted = extract_zip(f.path, work_dir / "unzipped", zip_limits, f.name)
            if extracted.skipped:
                notes.append(
                    f"Ignored {len(extracted.skipped)} other files in {f.name}: {', '.join(extracted.skipped[:5])}."
                )
            for m in extracted.members:
                check_content(m.path, m.fmt, f"{f.name}/{m.member_name}")
                flat.append(InputFile(m.path, m.fmt, m.member_name))
        else:
            flat.append(f)
    steps = [f for f in flat if f.fmt == "step"]
    meshes = [f for f in flat if f.fmt in ("stl", "obj")]
    if steps and meshes:
        raise InvalidInput(
            "A model is either CAD (STEP) or triangle meshes (STL/OBJ); this upload mixes both."
        )
    if steps:
        unit = step_length_unit(steps[0].path)
        return LoadedInput(unit, [f.path for f in steps], notes=notes)
    bodies: list[SurfaceBody] = []
    for f in meshes:
        stem = Path(f.name).name.rsplit(".", 1)[0] or "body"
        read = read_stl if f.fmt == "stl" else read_obj
        for body in read(f.path, f.name, stem):
            notes += body.notes
            bodies.append(body)
    return LoadedInput(mesh_units, bodies=bodies, notes=notes)
