"""Writes the upload fixtures the server's tests send through POST /api/convert-step.

    python -m fieldline_engine.testing.upload_fixtures <dir>

Writes manifest.json beside them: for each broken STL, the 0-based triangles problem markers must name.
"""

import io
import json
import stat
import sys
import zipfile
from pathlib import Path

import numpy as np

from fieldline_engine.geometry.mesh_io import write_obj, write_stl_ascii, write_stl_binary
from fieldline_engine.testing import shapes


def _zip(path: Path, entries: list[tuple[str, bytes]], symlink: str | None = None) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            if name == symlink:
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, data)
    path.write_bytes(buf.getvalue())


def write_fixtures(d: Path) -> dict:
    d.mkdir(parents=True, exist_ok=True)
    shapes.step_assembly(d / "assembly.step")
    shapes.step_coax(d / "coax.step")
    shapes.step_with_unit(shapes.step_box(d / "box.step"), d / "box_in.step", "in")
    shapes.step_self_intersecting(d / "bad.step")
    _heavy_step(d / "heavy.step")

    v, f = shapes.box_surface((0, 0, 0), (10, 10, 10))
    write_stl_binary(d / "box_binary.stl", v, f, "box")
    write_stl_ascii(d / "box_ascii.stl", [("box", v, f)])
    write_obj(d / "cube.obj", [("cube", v, f)])
    left, right = d / "left.stl", d / "right.stl"
    write_stl_ascii(left, [("left", v, f)])
    write_stl_ascii(right, [("right", v + [20, 0, 0], f)])
    _zip(d / "parts.zip", [("parts/left.stl", left.read_bytes()), ("parts/right.stl", right.read_bytes())])
    _zip(d / "traversal.zip", [("../../../tmp/evil.stl", left.read_bytes())])
    _zip(d / "symlink.zip", [("link.stl", b"/etc/passwd")], symlink="link.stl")
    _zip(d / "nested.zip", [("inner.zip", (d / "parts.zip").read_bytes())])
    _zip(d / "bomb.zip", [("bomb.stl", b"\x00" * (64 * 1024 * 1024))])
    (d / "photo.step").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(512))
    (d / "notes.txt").write_text("not geometry\n")
    (d / "large.stl").write_bytes(b"solid big\n" + b" " * (1_300_000) + b"\nendsolid big\n")

    broken = {
        "hole": shapes.broken_hole(),
        "self_intersection": shapes.broken_self_intersection(),
        "non_manifold_edge": shapes.broken_non_manifold_edge(),
        "flipped_triangle": shapes.broken_flipped_triangle(),
    }
    manifest = {}
    for name, b in broken.items():
        write_stl_binary(d / f"broken_{name}.stl", b.vertices * 10, b.faces, name)
        manifest[name] = {"file": f"broken_{name}.stl", "kind": b.kind, "faces": sorted(b.expected_faces)}
    result = {"broken": manifest}
    (d / "manifest.json").write_text(json.dumps(result))
    return result


def _heavy_step(path: Path) -> None:
    """Many small solids: slow enough to parse and triangulate to trip a one-second time limit."""
    from netgen.occ import Compound, Cylinder, Pnt, Z

    rng = np.random.default_rng(7)
    solids = []
    for k in range(400):
        x, y = rng.uniform(0, 100, 2)
        c = Cylinder(Pnt(x, y, 0), Z, r=0.5 + (k % 5) * 0.1, h=2 + (k % 7))
        c.name = f"pin {k}"
        solids.append(c)
    Compound(solids).WriteStep(str(path))


if __name__ == "__main__":
    write_fixtures(Path(sys.argv[1]))
