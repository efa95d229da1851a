"""Readers and writers for triangle-surface files: STL (ASCII and binary) and Wavefront OBJ.

Each reader returns bodies: a name plus vertices and triangles in the file's coordinates. STL stores
every corner separately; vertices are welded later (surface.weld), so triangle order is kept exactly
and problem markers can name triangles by their position in the file.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from fieldline_engine.errors import InvalidInput
from fieldline_engine.geometry.formats import is_binary_stl

MAX_TRIANGLES = 20_000_000


@dataclass
class SurfaceBody:
    name: str
    vertices: np.ndarray  # (n, 3) float64
    faces: np.ndarray  # (m, 3) int64, 0-based into vertices
    patches: np.ndarray | None = None  # (m,) surface patch (CAD face) id per triangle, when known
    notes: list[str] = field(default_factory=list)


_BINARY_DTYPE = np.dtype([("normal", "<f4", (3,)), ("corners", "<f4", (3, 3)), ("attribute", "<u2")])
_FLOAT = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_VERTEX = re.compile(rf"vertex\s+({_FLOAT})\s+({_FLOAT})\s+({_FLOAT})", re.IGNORECASE)
_VERTEX_LINE = re.compile(r"^\s*vertex\b", re.IGNORECASE | re.MULTILINE)
_SOLID = re.compile(r"^\s*solid\b[ \t]*([^\r\n]*)", re.IGNORECASE | re.MULTILINE)


def _soup_body(name: str, corners: np.ndarray, display: str) -> SurfaceBody:
    corners = np.asarray(corners, dtype=np.float64).reshape(-1, 3)
    if corners.shape[0] == 0:
        raise InvalidInput(f"{display} contains no triangles.")
    if not np.all(np.isfinite(corners)):
        raise InvalidInput(f"{display} contains a vertex coordinate that is not a finite number.")
    faces = np.arange(corners.shape[0], dtype=np.int64).reshape(-1, 3)
    return SurfaceBody(name=name, vertices=corners, faces=faces)


def read_stl(path: Path, display: str, default_name: str) -> list[SurfaceBody]:
    if is_binary_stl(path):
        with path.open("rb") as fh:
            header = fh.read(84)
        count = int.from_bytes(header[80:84], "little")
        if count > MAX_TRIANGLES:
            raise InvalidInput(f"{display} has {count} triangles; at most {MAX_TRIANGLES} are supported.")
        data = np.fromfile(path, dtype=_BINARY_DTYPE, count=count, offset=84)
        header = header[:80]
        name = default_name
        if header[:6].lower() == b"solid " and all(32 <= c < 127 for c in header[6:].rstrip(b"\x00 ")):
            name = header[6:].rstrip(b"\x00 ").decode("ascii").strip() or default_name
        return [_soup_body(name, data["corners"], display)]

    text = path.read_bytes().decode("latin-1")
    starts = [m for m in _SOLID.finditer(text)]
    if not starts:
        raise InvalidInput(f"{display} is not a valid ASCII STL file (no 'solid' line).")
    bodies: list[SurfaceBody] = []
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        block = text[m.end() : end]
        values = _VERTEX.findall(block)
        # A vertex line the pattern skips (nan, inf, a missing coordinate) would shift every later corner
        # into the wrong triangle and still leave a multiple of three: refuse the file instead.
        if len(_VERTEX_LINE.findall(block)) != len(values):
            raise InvalidInput(
                f"{display}: solid '{m.group(1).strip()}' has a vertex line that is not three finite numbers."
            )
        if not values:
            continue
        if len(values) % 3:
            raise InvalidInput(
                f"{display}: solid '{m.group(1).strip()}' has a facet without exactly three vertices."
            )
        if len(values) // 3 > MAX_TRIANGLES:
            raise InvalidInput(f"{display} has more than {MAX_TRIANGLES} triangles.")
        name = m.group(1).strip() or (default_name if len(starts) == 1 else f"{default_name} {i + 1}")
        bodies.append(_soup_body(name, np.array(values, dtype=np.float64), display))
    if not bodies:
        raise InvalidInput(f"{display} contains no triangles.")
    return bodies


def read_obj(path: Path, display: str, default_name: str) -> list[SurfaceBody]:
    """Vertices (`v`), faces (`f`, polygons fan-triangulated, negative indices relative), bodies from
    `o` statements (or `g` groups when the file has no `o`)."""
    text = path.read_bytes().decode("utf-8", errors="replace")
    has_objects = re.search(r"^\s*o\s", text, re.MULTILINE) is not None
    split_keyword = "o" if has_objects else "g"
    vertices: list[tuple[float, float, float]] = []
    groups: list[tuple[str, list[list[int]]]] = [(default_name, [])]
    polygons = 0
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        parts = line.split()
        key = parts[0]
        if key == "v":
            if len(parts) < 4:
                raise InvalidInput(f"{display}, line {lineno}: a vertex needs three coordinates.")
            try:
                vertices.append((float(parts[1]), float(parts[2]), float(parts[3])))
            except ValueError as exc:
                raise InvalidInput(f"{display}, line {lineno}: '{line[:60]}' is not a vertex.") from exc
        elif key == "f":
            try:
                idx = [int(p.split("/")[0]) for p in parts[1:]]
            except ValueError as exc:
                raise InvalidInput(f"{display}, line {lineno}: '{line[:60]}' is not a face.") from exc
            if len(idx) < 3:
                raise InvalidInput(f"{display}, line {lineno}: a face needs at least three vertices.")
            n = len(vertices)
            resolved = [i - 1 if i > 0 else n + i for i in idx]
            if any(i < 0 or i >= n for i in resolved) or 0 in idx:
                raise InvalidInput(
                    f"{display}, line {lineno}: a face refers to a vertex that does not exist."
                )
            if len(resolved) > 3:
                polygons += 1
            for k in range(1, len(resolved) - 1):
                groups[-1][1].append([resolved[0], resolved[k], resolved[k + 1]])
        elif key == split_keyword:
            name = line[len(key) :].strip() or f"{default_name} {len(groups)}"
            if groups[-1][1]:
                groups.append((name, []))
            else:
                groups[-1] = (name, [])
    all_vertices = np.asarray(vertices, dtype=np.float64).reshape(-1, 3)
    if not np.all(np.isfinite(all_vertices)):
        raise InvalidInput(f"{display} contains a vertex coordinate that is not a finite number.")
    bodies: list[SurfaceBody] = []
    for name, tris in groups:
        if not tris:
            continue
        faces = np.asarray(tris, dtype=np.int64)
        used, inverse = np.unique(faces, return_inverse=True)
        body = SurfaceBody(name=name, vertices=all_vertices[used], faces=inverse.reshape(-1, 3))
        bodies.append(body)
    if not bodies:
        raise InvalidInput(f"{display} contains no faces.")
    if polygons:
        bodies[0].notes.append(f"Split {polygons} polygon faces of {display} into triangles.")
    return bodies


def write_stl_ascii(path: Path, bodies: list[tuple[str, np.ndarray, np.ndarray]]) -> None:
    """Writes named solids; used by tests and fixtures."""
    lines: list[str] = []
    for name, vertices, faces in bodies:
        lines.append(f"solid {name}")
        for tri in np.asarray(faces):
            a, b, c = (np.asarray(vertices)[i] for i in tri)
            n = np.cross(b - a, c - a)
            norm = np.linalg.norm(n)
            n = n / norm if norm > 0 else n
            lines.append(f"  facet normal {n[0]:.6e} {n[1]:.6e} {n[2]:.6e}")
            lines.append("    outer loop")
            for p in (a, b, c):
                lines.append(f"      vertex {p[0]:.9e} {p[1]:.9e} {p[2]:.9e}")
            lines.append("    endloop")
            lines.append("  endfacet")
        lines.append(f"endsolid {name}")
    path.write_text("\n".join(lines) + "\n", encoding="ascii")


def write_stl_binary(path: Path, vertices: np.ndarray, faces: np.ndarray, name: str = "") -> None:
    faces = np.asarray(faces)
    data = np.zeros(len(faces), dtype=_BINARY_DTYPE)
    corners = np.asarray(vertices, dtype=np.float64)[faces]
    data["corners"] = corners
    n = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    norm = np.linalg.norm(n, axis=1, keepdims=True)
    data["normal"] = np.divide(n, norm, out=np.zeros_like(n), where=norm > 0)
    header = (f"binary {name}".encode("ascii")[:80]).ljust(80, b"\x00")
    with path.open("wb") as fh:
        fh.write(header)
        fh.write(len(faces).to_bytes(4, "little"))
        fh.write(data.tobytes())


def write_obj(path: Path, bodies: list[tuple[str, np.ndarray, np.ndarray]]) -> None:
    lines: list[str] = []
    offset = 0
    for name, vertices, faces in bodies:
        lines.append(f"o {name}")
        lines += [f"v {x:.9g} {y:.9g} {z:.9g}" for x, y, z in np.asarray(vertices)]
        lines += [f"f {a + 1 + offset} {b + 1 + offset} {c + 1 + offset}" for a, b, c in np.asarray(faces)]
        offset += len(vertices)
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
