"""Import rules of the engine (docs/multiphysics.md §4): physics-neutral code imports no family, and one
family uses another only where the design says so (thermal → em for Joule heating through a Solution,
vibration → structural for the elasticity operator)."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "fieldline_engine"
FAMILIES = {"em", "thermal", "structural", "vibration"}
NEUTRAL = {"core", "post", "mesh", "io", "geometry", "commands"}
ALLOWED_BETWEEN_FAMILIES = {("thermal", "em"), ("vibration", "structural")}


def imported_packages(path: Path) -> set[str]:
    """The fieldline_engine sub-packages a module imports (`fieldline_engine.<sub>...`)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "fieldline_engine" and len(parts) > 1:
                out.add(parts[1])
    return out


def violations(package: Path) -> list[str]:
    found: list[str] = []
    for path in sorted(package.rglob("*.py")):
        top = path.relative_to(package).parts[0]
        if top.endswith(".py"):
            continue  # top-level modules (analyses.py is the registry and imports every family)
        for target in imported_packages(path) & FAMILIES:
            if target == top:
                continue
            if top in NEUTRAL or (top in FAMILIES and (top, target) not in ALLOWED_BETWEEN_FAMILIES):
                found.append(f"{path.relative_to(package)} imports fieldline_engine.{target}")
    return found


def test_no_forbidden_imports():
    assert violations(PACKAGE) == []


def test_a_planted_forbidden_import_is_caught(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "bad.py").write_text("from fieldline_engine.em.materials import body_materials\n")
    (tmp_path / "structural").mkdir()
    (tmp_path / "structural" / "also_bad.py").write_text("import fieldline_engine.thermal.solver\n")
    (tmp_path / "thermal").mkdir()
    (tmp_path / "thermal" / "fine.py").write_text("from fieldline_engine.em import em_analyses\n")
    assert violations(tmp_path) == [
        "core/bad.py imports fieldline_engine.em",
        "structural/also_bad.py imports fieldline_engine.thermal",
    ]


def test_test_seams_stay_out_of_the_production_path():
    """Only the CLI loads fieldline_engine.testing, and only when FIELDLINE_TEST_HOOKS=1 (cli.py)."""
    importers = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).parts[0] != "testing" and "testing" in imported_packages(path)
    ]
    assert importers == ["cli.py"]
