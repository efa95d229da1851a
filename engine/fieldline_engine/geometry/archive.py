"""Safe extraction of uploaded ZIP archives (notes: webstack-anchors §2.5 U3/U4).

Member names are never used as paths: members are written under generated names. The archive is
refused as a whole when any member is unsafe (absolute or parent-directory paths, drive letters,
backslashes, symbolic links, encryption, nested archives) or when it would expand past the limits;
expansion is measured on the bytes actually decompressed, not on the sizes the headers claim.
"""

import stat
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from fieldline_engine.errors import EngineError, InvalidInput
from fieldline_engine.geometry.formats import format_from_extension

NESTED_ARCHIVE_EXTENSIONS = {"zip", "7z", "rar", "tar", "gz", "tgz", "bz2", "xz", "zst", "jar", "lz", "lzma"}
IGNORED_PREFIXES = ("__MACOSX/",)
CHUNK = 1 << 20


@dataclass
class ZipLimits:
    max_members: int = 256
    max_total_bytes: int = 2 * 1024**3
    max_ratio: float = 200.0
    # Small members compress extremely well (a 2 kB run of zeros); the ratio is judged beyond this size.
    ratio_floor_bytes: int = 1024 * 1024

    @classmethod
    def from_job(cls, raw: dict | None) -> "ZipLimits":
        raw = raw or {}
        base = cls()
        return cls(
            max_members=int(raw.get("max_members", base.max_members)),
            max_total_bytes=int(raw.get("max_total_bytes", base.max_total_bytes)),
            max_ratio=float(raw.get("max_ratio", base.max_ratio)),
            ratio_floor_bytes=int(raw.get("ratio_floor_bytes", base.ratio_floor_bytes)),
        )


@dataclass
class ExtractedMember:
    path: Path  # generated name inside the destination directory
    member_name: str  # the name inside the archive, for messages only
    fmt: str


@dataclass
class Extraction:
    members: list[ExtractedMember] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


class UnsafeArchive(EngineError):
    def __init__(self, message: str):
        super().__init__("unsafe_archive", message)


def _unsafe_name_reason(name: str) -> str | None:
    if "\x00" in name:
        return "contains a NUL character"
    if "\\" in name:
        return "uses backslashes"
    if name.startswith("/"):
        return "is an absolute path"
    if len(name) >= 2 and name[1] == ":" and name[0].isalpha():
        return "starts with a drive letter"
    if ".." in PurePosixPath(name).parts:
        return "points outside the archive (..)"
    return None


def extract_zip(archive: Path, dest: Path, limits: ZipLimits, display: str) -> Extraction:
    try:
        zf = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError) as exc:
        raise InvalidInput(f"{display} is not a readable ZIP archive ({exc}).") from exc
    with zf:
        infos = zf.infolist()
        if len(infos) > limits.max_members:
            raise UnsafeArchive(
                f"{display} holds {len(infos)} entries; at most {limits.max_members} are accepted."
            )
        for info in infos:
            reason = _unsafe_name_reason(info.filename)
            if reason:
                raise UnsafeArchive(f"{display} was refused: the entry '{info.filename[:200]}' {reason}.")
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise UnsafeArchive(f"{display} was refused: the entry '{info.filename}' is a symbolic link.")
            if info.flag_bits & 0x1:
                raise UnsafeArchive(f"{display} was refused: the entry '{info.filename}' is encrypted.")
            ext = info.filename.rsplit(".", 1)[-1].lower() if "." in info.filename else ""
            if not info.is_dir() and ext in NESTED_ARCHIVE_EXTENSIONS:
                raise UnsafeArchive(
                    f"{display} was refused: it contains another archive ('{info.filename}'). "
                    "Nested archives are not accepted; put the STEP, STL or OBJ files in one ZIP."
                )

        result = Extraction()
        dest.mkdir(parents=True, exist_ok=True)
        total = 0
        for info in infos:
            name = info.filename
            if info.is_dir():
                continue
            base = PurePosixPath(name).name
            fmt = format_from_extension(name)
            if name.startswith(IGNORED_PREFIXES) or base.startswith(".") or fmt is None:
                result.skipped.append(name)
                continue
            target = dest / f"member_{len(result.members)}.{fmt}"
            try:
                total = _copy_member(zf, info, target, total, limits, display)
            except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as exc:
                raise InvalidInput(f"{display}: the entry '{name}' could not be read ({exc}).") from exc
            result.members.append(ExtractedMember(path=target, member_name=name, fmt=fmt))
        if not result.members:
            raise InvalidInput(f"{display} contains no STEP, STP, STL or OBJ file.")
        return result


def _copy_member(
    zf: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, total: int, limits: ZipLimits, display: str
) -> int:
    """Decompresses one member chunk by chunk, counting real bytes; returns the new running total."""
    name = info.filename
    written = 0
    with zf.open(info) as src, target.open("wb") as out:
        first = True
        while True:
            chunk = src.read(CHUNK)
            if not chunk:
                break
            if first and (chunk.startswith(b"PK\x03\x04") or chunk.startswith(b"Rar!")):
                raise UnsafeArchive(
                    f"{display} was refused: the entry '{name}' is itself an archive. "
                    "Nested archives are not accepted."
                )
            first = False
            written += len(chunk)
            total += len(chunk)
            if total > limits.max_total_bytes:
                raise UnsafeArchive(
                    f"{display} was refused: it expands to more than "
                    f"{limits.max_total_bytes // (1024 * 1024)} MB (a decompression bomb?)."
                )
            if written > limits.ratio_floor_bytes and written > limits.max_ratio * max(info.compress_size, 1):
                raise UnsafeArchive(
                    f"{display} was refused: the entry '{name}' expands more than "
                    f"{limits.max_ratio:.0f} times (a decompression bomb?)."
                )
            out.write(chunk)
    return total
