"""The adaptive loop (`adaptiveRefinement`): solve, estimate, mark, refine, solve again, until the
tolerance is met or a limit stops it. It names no physics: the registered analysis solves each pass and
hands back its error estimate on the Solution (core/adaptive/estimate.py); optional methods on the
analysis let a family take part more closely:

- `supports_adaptive(config) -> bool` (required to run adaptively: a family without an estimator is
  refused before any solve);
- `adaptive_pass_config(config) -> dict | None`: the config each pass solves (full-wave: the adaptation
  frequency alone); the full config is then solved once more on the final mesh (the requested sweep);
- `adaptive_model(model, config, progress) -> (model, config) | None`: the model the passes refine when it
  is more than the upload, built once before the first pass (magnetics: the device with the air the run
  adds around it, so that the air is marked and refined like any other element), and the config the
  passes solve it with;
- `adaptive_results(model, solution, config) -> (model, solution)`: what the results show of the final
  model and solution (magnetics: the device, as a run without refinement shows it).

Results: `solver_info.adaptive_passes` ([{pass, unknowns, elements, estimated_error, quantity, time_s,
change}]), `solver_info.adaptive_refinement` (the rule, what stopped the passes and what was reached),
the final mesh (the writer writes the model the solution was computed on) and the last estimate as the
cell field `error_indicator`.
"""

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from fieldline_engine import protocol
from fieldline_engine.core.adaptive.estimate import ErrorEstimate, Tracked, dorfler_mark
from fieldline_engine.core.adaptive.given import carried_given_fields
from fieldline_engine.core.adaptive.peak import peak_elements
from fieldline_engine.core.adaptive.refine import SurfaceProjector, refine_model
from fieldline_engine.core.adaptive.settings import AdaptiveSettings, adaptive_settings
from fieldline_engine.core.adaptive.stopping import change_between, looks_singular
from fieldline_engine.core.fields import Field
from fieldline_engine.core.solution import Solution
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.protocol import ProgressSpan

DEFAULT_TOLERANCE = 0.01


@dataclass
class AdaptiveOutcome:
    model: TetModel
    solution: Solution


def run_adaptive(
    analysis: Any,
    model: TetModel,
    config: dict[str, Any],
    progress: ProgressSpan,
    surface: SurfaceProjector | None = None,
) -> AdaptiveOutcome:
    supports = getattr(analysis, "supports_adaptive", None)
    if supports is None or not supports(config):
        raise InvalidInput(
            f"Adaptive refinement is not available for '{analysis.analysis_type}' analyses: "
            "this analysis has no error estimator. Remove adaptiveRefinement or choose another analysis."
        )
    prepare = getattr(analysis, "adaptive_model", None)
    prepared = prepare(model, config, progress.sub(0.0, 0.02)) if prepare else None
    if prepared is not None:
        model, config = prepared
    pass_config_of = getattr(analysis, "adaptive_pass_config", None)
    pass_config = (pass_config_of(config) if pass_config_of else None) or config
    settings = adaptive_settings(config, DEFAULT_TOLERANCE)
    assert settings is not None
    explicit_tolerance = "tolerance" in config["adaptiveRefinement"]
    # A family whose passes solve a reduced config (full-wave: one frequency) runs the full one at the end.
    final_solve = pass_config is not config
    share = 0.6 if final_solve else 0.85

    passes: list[dict[str, Any]] = []
    history: list[Any] = []
    previous: Tracked | None = None
    stop: dict[str, Any] = {}
    solution: Solution | None = None
    estimate: ErrorEstimate | None = None
    for k in range(1, settings.max_passes + 1):
        started = time.perf_counter()
        protocol.log(f"Adaptive pass {k}: {model.nt} elements")
        span = progress.sub(share * (k - 1) / settings.max_passes, share * k / settings.max_passes)
        solution = analysis.solve(model, pass_config, span)
        estimate = solution.error_estimate
        if estimate is None:
            raise InvalidInput(
                f"Adaptive refinement is not available for this '{analysis.analysis_type}' run: "
                "its solver gave no error estimate."
            )
        name, tracked = _tracked(settings, estimate, solution)
        tolerance = _tolerance(settings, estimate, explicit_tolerance)
        change = change_between(previous, tracked) if tracked is not None else None
        value = _summary(tracked.value) if tracked is not None else None
        history.append(value)
        passes.append(
            {
                "pass": k,
                "unknowns": int(estimate.unknowns),
                "elements": int(model.nt),
                "estimated_error": estimate.relative_error,
                "quantity": value,
                "change": change,
                "time_s": 0.0,
            }
        )
        stop = _decide(settings, estimate, name, tracked, change, tolerance, history, k)
        if not stop:
            marked = dorfler_mark(estimate.indicators, settings.fraction)
            peak = peak_elements(model, settings.quantity, solution)
            if peak is not None:
                marked |= peak
            refined = refine_model(model, marked, surface)
            predicted = estimate.unknowns * refined.nt / max(1, model.nt)
            if predicted > settings.max_unknowns:
                stop = {
                    "stopped_by": "max_unknowns",
                    "message": (
                        f"Stopped after pass {k}: the next pass would have about {predicted:,.0f} unknowns, "
                        f"above the limit of {settings.max_unknowns:,}."
                    ),
                }
            else:
                model = refined
                pass_config = carried_given_fields(pass_config, model)
                config = carried_given_fields(config, model)
        passes[-1]["time_s"] = time.perf_counter() - started
        previous = tracked
        if stop:
            break

    assert solution is not None and estimate is not None
    if final_solve:
        protocol.log("Adaptive passes done: solving the full run on the final mesh")
        final_config = {key: v for key, v in config.items() if key != "adaptiveRefinement"}
        # where the passes ran (full-wave, harmonic: one frequency) stays in the results of the full run
        adapted_at = solution.solver_info.get("adaptation_frequency_Hz")
        solution = analysis.solve(model, final_config, progress.sub(share, 0.95))
        if adapted_at is not None:
            solution.solver_info.setdefault("adaptation_frequency_Hz", adapted_at)
    _attach(solution, model, estimate, passes, stop, settings, tolerance, name)
    present = getattr(analysis, "adaptive_results", None)
    if present is not None:
        model, solution = present(model, solution, config)
    return AdaptiveOutcome(model, solution)


def _tracked(
    settings: AdaptiveSettings, estimate: ErrorEstimate, solution: Solution
) -> tuple[str | None, Tracked | None]:
    name = settings.quantity or estimate.default_quantity
    if name is None:
        return None, None
    if name in estimate.tracked:
        return name, estimate.tracked[name]
    value = solution.quantities.get(name)
    if settings.quantity is None and not isinstance(value, int | float):
        return None, None  # the family's default figure is not in this run's results: nothing to follow
    if isinstance(value, bool) or not isinstance(value, int | float | list | tuple):
        offered = sorted(
            [*estimate.tracked, *(k for k, v in solution.quantities.items() if isinstance(v, int | float))]
        )
        raise InvalidInput(
            f"Adaptive refinement: this analysis has no numeric quantity '{name}'. "
            f"Quantities it produces: {', '.join(offered)}."
        )
    return name, Tracked(value, "relative", name)


def _tolerance(settings: AdaptiveSettings, estimate: ErrorEstimate, explicit: bool) -> float:
    if not explicit and estimate.default_tolerance is not None:
        return estimate.default_tolerance
    return settings.tolerance


def _decide(
    settings: AdaptiveSettings,
    estimate: ErrorEstimate,
    name: str | None,
    tracked: Tracked | None,
    change: float | None,
    tolerance: float,
    history: list[Any],
    k: int,
) -> dict[str, Any]:
    by_quantity = (
        settings.quantity is not None or estimate.relative_error is None or estimate.stop_on_quantity
    )
    if by_quantity:
        if change is not None and change < tolerance:
            what = (
                "max |ΔS|" if tracked is not None and tracked.rule == "absolute" else f"the change of {name}"
            )
            return {
                "stopped_by": "tolerance",
                "converged": True,
                "message": f"Converged after pass {k}: {what} between the last two passes is {change:.3g}, "
                f"below the tolerance {tolerance:g}.",
            }
    elif estimate.relative_error is not None and estimate.relative_error < tolerance:
        return {
            "stopped_by": "tolerance",
            "converged": True,
            "message": f"Converged after pass {k}: the estimated relative error is "
            f"{estimate.relative_error:.3g}, below the tolerance {tolerance:g}.",
        }
    if by_quantity and looks_singular(history):
        return {
            "stopped_by": "singularity",
            "converged": False,
            "message": (
                f"'{name}' does not converge: it changed the same way in each of the last passes without "
                "settling, as a value at a singularity does (a re-entrant corner, the edge of a clamped face). "
                "Refinement makes it grow without bound; ask for a quantity away from the singularity, "
                "an average over a face, or an energy."
            ),
        }
    if k >= settings.max_passes:
        return {
            "stopped_by": "max_passes",
            "converged": False,
            "message": f"Stopped at the limit of {settings.max_passes} passes before reaching the tolerance {tolerance:g}.",
        }
    return {}


def _summary(value: Any) -> Any:
    """A tracked value as the passes table shows it: a number, or magnitudes of an array's entries."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    arr = np.asarray(value)
    if arr.size == 1:
        return float(np.abs(arr.ravel()[0])) if np.iscomplexobj(arr) else float(arr.ravel()[0])
    return [float(x) for x in np.abs(arr).ravel()]


def _attach(
    solution: Solution,
    model: TetModel,
    estimate: ErrorEstimate,
    passes: list[dict[str, Any]],
    stop: dict[str, Any],
    settings: AdaptiveSettings,
    tolerance: float,
    name: str | None,
) -> None:
    reached = passes[-1]
    solution.solver_info["adaptive_passes"] = passes
    solution.solver_info["adaptive_refinement"] = {
        "tolerance": tolerance,
        "quantity": name,
        "rule": "quantity change"
        if settings.quantity is not None or reached["estimated_error"] is None or estimate.stop_on_quantity
        else "estimated error",
        "fraction": settings.fraction,
        "max_passes": settings.max_passes,
        "max_unknowns": settings.max_unknowns,
        "converged": bool(stop.get("converged", False)),
        "stopped_by": stop.get("stopped_by", "max_passes"),
        "message": stop.get("message", ""),
        "passes": len(passes),
        "unknowns": reached["unknowns"],
        "elements": model.nt,
        "estimated_error": reached["estimated_error"],
        "change": reached["change"],
    }
    if not stop.get("converged", False):
        solution.warnings.append(f"Adaptive refinement: {stop.get('message', 'did not converge.')}")
    eta = np.sqrt(np.maximum(estimate.indicators, 0.0))
    total = float(np.sqrt(np.sum(eta**2)))
    solution.fields.add(
        Field(
            "error_indicator",
            "Error indicator (share of the estimated error)",
            "",
            "scalar",
            eta / total if total > 0 else eta,
            location="cell",
        )
    )
