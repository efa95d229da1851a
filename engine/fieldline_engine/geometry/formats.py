"""Which geometry format a file holds, decided by its extension and checked against its content.

The extension is only a claim (a PNG renamed .step must be refused), so each format's structure is
verified from the first bytes before any parser sees the file.
"""

from pathlib import Path

from fieldline_engine.errors import InvalidInput

CAD_FORMATS = ("step",)
SURFACE_FORMATS = ("stl", "obj")
ARCHIVE_FORMATS = ("zip",)
EXTENSION_TO_FORMAT = {"step": "step", "stp": "step", "stl": "stl", "obj": "obj", "zip": "zip"}


def format_from_extension(name: str) -> str | None:
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return EXTENSION_TO_FORMAT.get(ext)


def _head(path: Path, size: int = 65536) -> bytes:
    with path.open("rb") as fh:
        return fh.read(size)


def is_binary_stl(path: Path) -> bool:
    size = path.stat().st_size
    if size < 84:
        return False
    head = _head(path, 84)
    count = int.from_bytes(head[80:84], "little")
    return size == 84 + 50 * count


def check_content(path: Path, fmt: str, display_name: str) -> None:
    """Raises InvalidInput when the file's content does not match the format its name claims."""
    head = _head(path)
    if not head:
        raise InvalidInput(f"{display_name} is empty.")
    if fmt == "step":
        if not head.lstrip(b"\xef\xbb\xbf \t\r\n").upper().startswith(b"ISO-10303-21"):
            raise InvalidInput(
                f"{display_name} is not a STEP file: it does not start with the ISO-10303-21 header."
            )
    elif fmt == "stl":
        if is_binary_stl(path):
            return
        text = head.lstrip().lower()
        if not (text.startswith(b"solid") and (b"facet" in text or b"endsolid" in text)):
            raise InvalidInput(
                f"{display_name} is not a valid STL file: it is neither ASCII STL (solid … facet …) "
                "nor binary STL (its size does not match the triangle count in its header)."
            )
    elif fmt == "obj":
        if b"\x00" in head:
            raise InvalidInput(f"{display_name} is not an OBJ file: OBJ files are text.")
    elif fmt == "zip":
        if not (head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06")):
            raise InvalidInput(f"{display_name} is not a ZIP archive.")
    else:
        raise InvalidInput(f"Unsupported geometry format '{fmt}'.")
