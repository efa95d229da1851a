"""The analysis registry (docs/multiphysics.md §4): a new family is one folder and one registry line, and
everything downstream (results.json, results.bin) carries its named fields without knowing them."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fieldline_engine.core import registry
from fieldline_engine.errors import EngineError

ENGINE = Path(__file__).resolve().parents[1]


def test_unknown_analysis_type_names_the_available_ones():
    from fieldline_engine import analyses  # noqa: F401 — registers the families

    with pytest.raises(
        EngineError,
        match=r"Analysis type 'nope' is not available\. Available analysis types: .*\bem, em-eigen,",
    ):
        registry.analysis_for({"analysisType": "nope"})
    assert registry.resolve_type({"analysisType": "em", "transient": True}) == "em-time"
    assert registry.resolve_type({"analysisType": "thermal", "transient": True}) == "thermal-time"


def test_a_job_imports_only_its_own_family():
    """Families are registered by name: a structural solve's process never loads EM, thermal, vibration or
    SciPy (a third of the engine's start-up), and asking for a type loads exactly that family."""
    script = (
        "import sys\n"
        "from fieldline_engine.commands import solve\n"
        "from fieldline_engine.core.registry import analysis_for\n"
        "assert analysis_for({'analysisType': 'structural'}).analysis_type == 'structural'\n"
        "print(sorted({m.split('.')[1] if m.startswith('fieldline_engine.') else m.split('.')[0] for m in sys.modules\n"
        "    if m.startswith(('fieldline_engine.em', 'fieldline_engine.thermal', 'fieldline_engine.vibration',\n"
        "                     'fieldline_engine.structural', 'scipy'))}))\n"
        "analysis_for({'analysisType': 'modal'})\n"
        "print('vibration' if 'fieldline_engine.vibration.analysis' in sys.modules else 'not loaded')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=ENGINE, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split("\n")[:2] == ["['structural']", "vibration"]


def test_a_fake_family_is_one_folder_and_one_registry_line(tmp_path):
    from fieldline_engine.testing.meshes import box_mesh

    (tmp_path / "job.json").write_text(
        json.dumps(
            {"mesh_data": box_mesh((3.0, 4.0, 12.0), (1, 1, 1)), "config": {"analysisType": "fake-distance"}}
        )
    )
    # The one registry line, run in the engine's own process (as the server runs it).
    script = (
        "import sys; sys.path.insert(0, sys.argv[2])\n"
        "from fieldline_engine.core.registry import register\n"
        "from fake_family import DistanceAnalysis\n"
        "register(DistanceAnalysis())\n"
        "from fieldline_engine.commands.solve import run_solve\n"
        "from pathlib import Path\n"
        "run_solve(Path(sys.argv[1]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path), str(Path(__file__).parent)],
        cwd=ENGINE,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["fields"]["distance"]["unit"] == "m"
    assert max(results["fields"]["distance"]["data"]) == pytest.approx(13.0)
    assert results["quantities"]["max_distance_m"] == pytest.approx(13.0)
    assert results["solver_info"]["warnings"] == ["fake family: nothing to check"]
    assert results["animation"]["axis"] == "time" and results["animation"]["fields"] == ["distance"]
    blob = (tmp_path / "results.bin").read_bytes()
    header = json.loads(blob[12 : 12 + int.from_bytes(blob[8:12], "little")])
    assert header["fields"]["distance"] == {
        "label": "Distance",
        "unit": "m",
        "kind": "scalar",
        "location": "vertex",
        "complex": False,
    }
    assert "frames/1/distance" in header["arrays"]
