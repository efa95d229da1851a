"""The analysis registry: `analysisType` → the family object that checks and solves it.

Families register in `fieldline_engine/analyses.py` (one line each); `commands/solve.py` looks the type
up here and names no physics. A family registered by name (`register_lazy`) is imported only when a job
asks for it: a structural run does not load the EM, thermal and vibration modules (and their SciPy
imports), a third of the engine's start-up.
"""

from importlib import import_module
from typing import Any, Protocol

from fieldline_engine.core.solution import Solution
from fieldline_engine.errors import EngineError
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.protocol import ProgressSpan


class Analysis(Protocol):
    analysis_type: str

    def check(self, config: dict[str, Any]) -> list[str]:
        """Warnings about config fields this analysis cannot honour; raises InvalidInput to refuse."""
        ...

    def solve(self, model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution: ...

    # Optional: `distributable(config) -> bool`, whether an MPI job's ranks share the run (commands/solve.py).


_REGISTRY: dict[str, Analysis] = {}
_LAZY: dict[str, str] = {}  # analysis type → "module:Class", imported on first use

# The form's Transient switch on a steady family selects its time-domain twin (spec 001 §3: em → em-time).
TRANSIENT_TWINS = {"em": "em-time", "thermal": "thermal-time"}


def register(analysis: Analysis) -> Analysis:
    if analysis.analysis_type in _REGISTRY or analysis.analysis_type in _LAZY:
        raise ValueError(f"analysis '{analysis.analysis_type}' is registered twice")
    _REGISTRY[analysis.analysis_type] = analysis
    return analysis


def register_lazy(analysis_type: str, target: str) -> None:
    """Registers the family class `target` ("package.module:Class") under `analysis_type` without importing it."""
    if analysis_type in _REGISTRY or analysis_type in _LAZY:
        raise ValueError(f"analysis '{analysis_type}' is registered twice")
    _LAZY[analysis_type] = target


def unregister(analysis_type: str) -> None:
    """Tests register throw-away families; they take them out again."""
    _REGISTRY.pop(analysis_type, None)
    _LAZY.pop(analysis_type, None)


def load_all() -> None:
    """Imports every family registered by name: a standby engine's warm-up (standby.py) pays these imports
    (≈ 0.03–0.07 s for a structural, thermal or modal job) before its job arrives, not during it."""
    for analysis_type in list(_LAZY):
        _load(analysis_type)


def not_imported_types() -> list[str]:
    """Types registered by name whose family has not been imported yet (all of them in a cold process)."""
    return sorted(_LAZY)


def registered_types() -> list[str]:
    return sorted({*_REGISTRY, *_LAZY})


def _load(analysis_type: str) -> Analysis | None:
    found = _REGISTRY.get(analysis_type)
    target = _LAZY.get(analysis_type)
    if found is None and target is not None:
        module, name = target.split(":")
        found = getattr(import_module(module), name)()
        if found.analysis_type != analysis_type:
            raise ValueError(f"{target} is analysis '{found.analysis_type}', registered as '{analysis_type}'")
        _REGISTRY[analysis_type] = found
        del _LAZY[analysis_type]
    return found


def resolve_type(config: dict[str, Any]) -> str:
    analysis_type = str(config.get("analysisType") or "em")
    if config.get("transient") and analysis_type in TRANSIENT_TWINS:
        return TRANSIENT_TWINS[analysis_type]
    return analysis_type


def analysis_for(config: dict[str, Any]) -> Analysis:
    analysis_type = resolve_type(config)
    found = _load(analysis_type)
    if found is None:
        available = ", ".join(registered_types())
        raise EngineError(
            "unsupported_analysis",
            f"Analysis type '{analysis_type}' is not available. Available analysis types: {available}.",
        )
    return found
