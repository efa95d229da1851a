"""The analysis registry: `analysisType` → the family object that checks and solves it.

Families register in `fieldline_engine/analyses.py` (one line each); `commands/solve.py` looks the type
up here and names no physics.
"""

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


_REGISTRY: dict[str, Analysis] = {}

# The form's Transient switch on a steady family selects its time-domain twin (spec 001 §3: em → em-time).
TRANSIENT_TWINS = {"em": "em-time", "thermal": "thermal-time"}


def register(analysis: Analysis) -> Analysis:
    if analysis.analysis_type in _REGISTRY:
        raise ValueError(f"analysis '{analysis.analysis_type}' is registered twice")
    _REGISTRY[analysis.analysis_type] = analysis
    return analysis


def unregister(analysis_type: str) -> None:
    """Tests register throw-away families; they take them out again."""
    _REGISTRY.pop(analysis_type, None)


def registered_types() -> list[str]:
    return sorted(_REGISTRY)


def resolve_type(config: dict[str, Any]) -> str:
    analysis_type = str(config.get("analysisType") or "em")
    if config.get("transient") and analysis_type in TRANSIENT_TWINS:
        return TRANSIENT_TWINS[analysis_type]
    return analysis_type


def analysis_for(config: dict[str, Any]) -> Analysis:
    analysis_type = resolve_type(config)
    found = _REGISTRY.get(analysis_type)
    if found is None:
        available = ", ".join(registered_types())
        raise EngineError(
            "unsupported_analysis",
            f"Analysis type '{analysis_type}' is not available. Available analysis types: {available}.",
        )
    return found
