"""Readers and upload safety: STL (ASCII, binary, named solids), OBJ, content checks, STEP units, ZIP."""

import io
import stat
import zipfile
from pathlib import Path

import numpy as np
import pytest

from fieldline_engine.errors import EngineError, InvalidInput
from fieldline_engine.geometry.archive import UnsafeArchive, ZipLimits, extract_zip
from fieldline_engine.geometry.formats import check_content, format_from_extension
from fieldline_engine.geometry.mesh_io import read_obj, read_stl, write_obj, write_stl_ascii, write_stl_binary
from fieldline_engine.geometry.step_units import step_length_unit
from fieldline_engine.testing import shapes


def test_ascii_stl_keeps_each_named_solid_as_a_body(tmp_path: Path):
    va, fa = shapes.box_surface((0, 0, 0), (1, 1, 1))
    vb, fb = shapes.box_surface((2, 0, 0), (3, 1, 1))
    path = tmp_path / "two.stl"
    write_stl_ascii(path, [("housing", va, fa), ("pin", vb, fb)])
    check_content(path, "stl", "two.stl")
    bodies = read_stl(path, "two.stl", "two")
    assert [b.name for b in bodies] == ["housing", "pin"]
    assert [len(b.faces) for b in bodies] == [12, 12]
    assert np.allclose(bodies[1].vertices.min(axis=0), [2, 0, 0])


def test_binary_stl_is_read_even_when_its_header_starts_with_solid(tmp_path: Path):
    v, f = shapes.icosphere(subdivisions=1)
    path = tmp_path / "ball.stl"
    write_stl_binary(path, v, f, name="ball")
    raw = bytearray(path.read_bytes())
    raw[:6] = b"solid "  # exporters do this; the size still identifies the binary format
    path.write_bytes(bytes(raw))
    (body,) = read_stl(path, "ball.stl", "ball")
    assert len(body.faces) == len(f)
    assert np.allclose(body.vertices.reshape(-1, 3, 3), v[f].astype(np.float32), atol=1e-6)


def test_obj_objects_polygons_and_negative_indices(tmp_path: Path):
    path = tmp_path / "m.obj"
    path.write_text(
        "# two objects\no first\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n"
        "o second\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf -3/1/1 -2/2/2 -1/3/3\n"
    )
    bodies = read_obj(path, "m.obj", "m")
    assert [b.name for b in bodies] == ["first", "second"]
    assert len(bodies[0].faces) == 2  # the quad became two triangles
    assert "polygon" in bodies[0].notes[0]
    assert np.allclose(bodies[1].vertices[:, 2], 1)


def test_obj_face_pointing_at_a_missing_vertex_is_refused(tmp_path: Path):
    path = tmp_path / "bad.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nf 1 2 9\n")
    with pytest.raises(InvalidInput, match="line 3"):
        read_obj(path, "bad.obj", "bad")


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("photo.step", b"\x89PNG\r\n\x1a\n" + b"\x00" * 100, "not a STEP file"),
        ("mesh.stl", b"hello world, not a mesh", "not a valid STL"),
        ("mesh.obj", b"v 0 0 0\x00\x00\x01", "OBJ files are text"),
        ("a.zip", b"not a zip", "not a ZIP"),
        ("empty.stl", b"", "empty"),
    ],
)
def test_content_must_match_the_extension(tmp_path: Path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InvalidInput, match=message):
        check_content(path, format_from_extension(name), name)


@pytest.mark.parametrize("unit", ["mm", "cm", "m", "um", "in"])
def test_step_length_unit_is_read_from_the_file(tmp_path: Path, unit):
    base = shapes.step_box(tmp_path / "box.step")
    path = base if unit == "mm" else shapes.step_with_unit(base, tmp_path / f"box_{unit}.step", unit)
    assert step_length_unit(path) == unit


def _zip(entries: list[tuple[str, bytes]], **kw) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            if kw.get("symlink") == name:
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, data)
    return buf.getvalue()


def _stl_bytes(tmp_path: Path) -> bytes:
    v, f = shapes.box_surface()
    p = tmp_path / "box.stl"
    write_stl_ascii(p, [("box", v, f)])
    return p.read_bytes()


def test_zip_with_geometry_is_extracted_under_generated_names(tmp_path: Path):
    stl = _stl_bytes(tmp_path)
    archive = tmp_path / "parts.zip"
    archive.write_bytes(
        _zip([("dir/a.stl", stl), ("b.STL", stl), ("readme.txt", b"hi"), ("__MACOSX/._a.stl", b"x")])
    )
    out = extract_zip(archive, tmp_path / "x", ZipLimits(), "parts.zip")
    assert [m.member_name for m in out.members] == ["dir/a.stl", "b.STL"]
    assert [m.path.name for m in out.members] == ["member_0.stl", "member_1.stl"]
    assert sorted(out.skipped) == ["__MACOSX/._a.stl", "readme.txt"]


@pytest.mark.parametrize(
    ("entries", "kw", "message"),
    [
        ([("../../evil.stl", b"solid x")], {}, "outside the archive"),
        ([("/etc/passwd.stl", b"solid x")], {}, "absolute path"),
        ([("C:\\x.stl", b"solid x")], {}, "backslashes"),
        ([("D:x.stl", b"solid x")], {}, "drive letter"),
        ([("link.stl", b"/etc/passwd")], {"symlink": "link.stl"}, "symbolic link"),
        ([("inner.zip", b"PK\x03\x04rest")], {}, "Nested archives"),
        ([("disguised.stl", b"PK\x03\x04" + b"\x00" * 100)], {}, "itself an archive"),
    ],
)
def test_unsafe_zip_entries_refuse_the_whole_archive(tmp_path: Path, entries, kw, message):
    archive = tmp_path / "evil.zip"
    archive.write_bytes(_zip(entries, **kw))
    dest = tmp_path / "dest"
    with pytest.raises(UnsafeArchive, match=message):
        extract_zip(archive, dest, ZipLimits(), "evil.zip")
    assert not (tmp_path / "evil.stl").exists()
    assert not list(tmp_path.parent.glob("evil.stl"))


def test_decompression_bomb_by_ratio_is_stopped_early(tmp_path: Path):
    archive = tmp_path / "bomb.zip"
    archive.write_bytes(_zip([("bomb.stl", b"\x00" * (64 * 1024 * 1024))]))
    assert archive.stat().st_size < 200_000
    with pytest.raises(UnsafeArchive, match="expands more than 200 times"):
        extract_zip(archive, tmp_path / "d", ZipLimits(), "bomb.zip")
    written = sum(p.stat().st_size for p in (tmp_path / "d").glob("*"))
    assert written < 64 * 1024 * 1024  # stopped before writing the whole member


def test_total_expanded_size_is_capped(tmp_path: Path):
    rng = np.random.default_rng(1)
    data = rng.integers(0, 255, 300_000, dtype=np.uint8).tobytes()  # incompressible: ratio ~1
    archive = tmp_path / "big.zip"
    archive.write_bytes(_zip([("a.stl", data), ("b.stl", data), ("c.stl", data)]))
    with pytest.raises(UnsafeArchive, match="expands to more than"):
        extract_zip(archive, tmp_path / "d", ZipLimits(max_total_bytes=800_000), "big.zip")


def test_too_many_entries_and_empty_archives(tmp_path: Path):
    archive = tmp_path / "many.zip"
    archive.write_bytes(_zip([(f"f{i}.txt", b"") for i in range(300)]))
    with pytest.raises(UnsafeArchive, match="300 entries"):
        extract_zip(archive, tmp_path / "d", ZipLimits(), "many.zip")
    archive.write_bytes(_zip([("notes.txt", b"hello")]))
    with pytest.raises(EngineError, match="contains no STEP, STP, STL or OBJ"):
        extract_zip(archive, tmp_path / "d2", ZipLimits(), "many.zip")


def test_obj_writer_round_trip(tmp_path: Path):
    v, f = shapes.box_surface(n=2)
    write_obj(tmp_path / "b.obj", [("box", v, f)])
    (body,) = read_obj(tmp_path / "b.obj", "b.obj", "b")
    assert body.name == "box" and len(body.faces) == len(f)
