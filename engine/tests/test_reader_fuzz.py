"""Property-based (Hypothesis) tests of the upload readers: whatever bytes arrive, reading them either yields
bodies with finite coordinates and in-range triangles, or raises an EngineError with a sentence for the
user — never another exception (which would surface as a crashed parser). Seeded through Hypothesis'
derandomize, so every run tries the same examples."""

import io
import stat
import struct
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fieldline_engine.errors import EngineError
from fieldline_engine.geometry.archive import ZipLimits
from fieldline_engine.geometry.sources import InputFile, load_inputs

# Hypothesis may name two ZIP members alike; the reader must cope, the warning is noise.
pytestmark = pytest.mark.filterwarnings("ignore:Duplicate name")

FUZZ = settings(
    max_examples=150,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LIMITS = ZipLimits(max_total_bytes=256 * 1024, max_ratio=200.0, ratio_floor_bytes=64 * 1024)

BOX = [(x, y, z) for z in (0, 10) for y in (0, 10) for x in (0, 10)]
TRIS = [(0, 2, 1), (1, 2, 3), (4, 5, 6), (5, 7, 6), (0, 1, 4), (1, 5, 4)]

coordinate = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=32).map(repr),
    st.sampled_from(["nan", "inf", "-inf", "1e999", "", "x", "0x10", "1,5"]),
)


def read(content: bytes, fmt: str, name: str) -> None:
    """The property: bodies that make sense, or an EngineError with a message."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"upload.{fmt}"
        path.write_bytes(content)
        try:
            loaded = load_inputs([InputFile(path, fmt, name)], "mm", Path(d), LIMITS)
        except EngineError as err:
            assert len(err.message) > 10
            return
        for body in loaded.bodies:
            assert np.all(np.isfinite(body.vertices))
            assert body.faces.ndim == 2 and body.faces.shape[1] == 3
            assert body.faces.min() >= 0 and body.faces.max() < len(body.vertices)


@FUZZ
@given(st.binary(max_size=2048), st.sampled_from(["stl", "obj", "zip", "step"]))
def test_garbage_bytes_are_refused_with_a_message(content: bytes, fmt: str):
    read(content, fmt, f"garbage.{fmt}")


@FUZZ
@given(
    st.integers(min_value=0, max_value=len(TRIS)),
    st.one_of(st.integers(min_value=0, max_value=64), st.sampled_from([2**32 - 1, 2**31, 20_000_001])),
    st.binary(max_size=60),
    st.booleans(),
)
def test_binary_stl_with_a_lying_triangle_count(n: int, declared: int, tail: bytes, solid_header: bool):
    header = (b"solid box" if solid_header else b"fuzz").ljust(80, b"\0")
    body = b"".join(
        struct.pack("<3f", 0, 0, 0) + b"".join(struct.pack("<3f", *BOX[v]) for v in t) + b"\0\0"
        for t in TRIS[:n]
    )
    read(header + struct.pack("<I", declared) + body + tail, "stl", "lying.stl")


@FUZZ
@given(st.lists(st.tuples(coordinate, coordinate, coordinate), min_size=1, max_size=12), st.integers(0, 40))
def test_ascii_stl_with_odd_coordinates_and_facets(corners, drop: int):
    lines = ["solid fuzz", "facet normal 0 0 0", "outer loop"]
    lines += [f"vertex {x} {y} {z}" for i, (x, y, z) in enumerate(corners) if i != drop]
    lines += ["endloop", "endfacet", "endsolid fuzz"]
    read("\n".join(lines).encode(), "stl", "odd.stl")


@FUZZ
@given(
    st.lists(st.tuples(coordinate, coordinate, coordinate), max_size=10),
    st.lists(
        st.lists(
            st.one_of(st.integers(-(2**40), 2**40), st.sampled_from(["1/2/3", "x", "-0", "1.5"])), max_size=6
        ),
        max_size=10,
    ),
)
def test_obj_with_bad_indices_and_coordinates(vertices, faces):
    lines = [f"v {x} {y} {z}" for x, y, z in vertices] + ["f " + " ".join(map(str, f)) for f in faces]
    read("\n".join(lines).encode(), "obj", "odd.obj")


member_name = st.one_of(
    st.sampled_from(
        [
            "part.stl",
            "../evil.stl",
            "/abs.stl",
            "a/../../x.stl",
            "C:\\x.stl",
            "C:/x.obj",
            "inner.zip",
            "x\x00.stl",
        ]
    ),
    st.text(min_size=1, max_size=20).map(lambda s: s + ".stl"),
)


@FUZZ
@given(
    st.lists(
        st.tuples(member_name, st.binary(max_size=512), st.booleans(), st.integers(0, 300 * 1024)),
        min_size=1,
        max_size=4,
    ),
    st.integers(0, 100),
)
def test_zip_with_hostile_members(members, cut_percent: int):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data, symlink, padding in members:
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            if symlink:
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, data + b" " * padding)  # padding: bombs beyond max_total_bytes
    raw = buf.getvalue()
    read(raw[: max(1, len(raw) * cut_percent // 100)] if cut_percent < 100 else raw, "zip", "parts.zip")


def test_an_unreadable_vertex_line_is_refused_not_skipped(tmp_path: Path):
    # Found by the server's upload fuzz: 'nan' on the 3 lines of one corner left 33 readable corners, a
    # multiple of three, and the file was read as 11 scrambled triangles.
    lines = ["solid fuzz"]
    for t in [(0, 2, 1), (1, 2, 3), (0, 1, 4), (0, 4, 2)]:
        lines += ["facet normal 0 0 0", "outer loop"]
        lines += [f"vertex {'nan' if v == 0 else BOX[v][0]} {BOX[v][1]} {BOX[v][2]}" for v in t]
        lines += ["endloop", "endfacet"]
    path = tmp_path / "nan.stl"
    path.write_text("\n".join([*lines, "endsolid fuzz"]))
    with pytest.raises(EngineError, match="not three finite numbers"):
        load_inputs([InputFile(path, "stl", "nan.stl")], "mm", tmp_path, LIMITS)
