"""`mesh`: tetrahedral meshing of an uploaded surface (the geometry pipeline builds this out)."""

from pathlib import Path
from typing import Any

from fieldline_engine.errors import EngineError


def run_mesh(job_dir: Path) -> dict[str, Any]:
    raise EngineError("unsupported_analysis", "Volume meshing is not available yet.")
