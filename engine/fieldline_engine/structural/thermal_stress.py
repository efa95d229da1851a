"""`analysisType: "thermal-structural"`: a steady thermal solve (every thermal key, Joule heating included),
then linear elasticity loaded by the thermal strain α (T − referenceTemperature) plus the structural keys'
own supports and loads. Results carry both families' fields and quantities.

The structural family imports nothing of thermal: the thermal step is the registry's `thermal` analysis
(as thermal's Joule heating asks for `em`), and its `temperature` field reaches this family's static solve as
a given field (core/given_fields.py), the same path a chained thermal job's temperature takes.
"""

import time
from typing import Any

from fieldline_engine.core.adaptive.estimate import joint_estimate
from fieldline_engine.core.adaptive.settings import adaptive_requested
from fieldline_engine.core.given_fields import GivenField, fields_from_info, with_given
from fieldline_engine.core.registry import analysis_for
from fieldline_engine.core.solution import Solution
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.protocol import ProgressSpan
from fieldline_engine.structural.analysis import StructuralAnalysis

# One element order for both steps; elasticity's default (first-order tetrahedra lock in bending).
DEFAULT_ORDER = 2


def step_configs(config: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    base = {**config, "meshOrder": config.get("meshOrder", DEFAULT_ORDER), "transient": False}
    return {**base, "analysisType": "thermal"}, {**base, "analysisType": "structural"}


class ThermalStructuralAnalysis:
    analysis_type = "thermal-structural"

    def check(self, config: dict[str, Any]) -> list[str]:
        if config.get("transient"):
            raise InvalidInput(
                "A thermal-structural run solves the steady temperature; a transient one is not available: "
                "run a transient thermal job and chain a structural run from its frame (fieldsFrom)."
            )
        if config.get("temperatureLoad"):
            raise InvalidInput(
                "A thermal-structural run takes its temperature from its own thermal solve: leave "
                "temperatureLoad out (or run a structural analysis with it)."
            )
        thermal, structural = step_configs(config)
        warnings = analysis_for(thermal).check(thermal) + StructuralAnalysis().check(structural)
        return list(dict.fromkeys(warnings))

    def supports_adaptive(self, config: dict[str, Any]) -> bool:
        return True

    def solve(self, model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
        thermal_config, structural_config = step_configs(config)
        started = time.perf_counter()
        thermal = analysis_for(thermal_config).solve(model, thermal_config, progress.sub(0.0, 0.4))
        thermal_seconds = time.perf_counter() - started
        temperature = thermal.field("temperature")
        if temperature is None:  # the thermal family's contract: a steady run has its temperature
            raise AssertionError("the thermal step returned no temperature field")
        structural_config = with_given(
            structural_config, {"temperature": GivenField(temperature, {"step": "thermal"})}
        )
        progress(0.4, "Thermal stress: elasticity under the thermal strain")
        structural = analysis_for(structural_config).solve(model, structural_config, progress.sub(0.4, 1.0))
        out = combined(
            thermal, structural, thermal_seconds, time.perf_counter() - started - thermal_seconds, config
        )
        if adaptive_requested(config):
            # Both steps' flux recoveries (∇T by k, the strain by E): the mesh serves the temperature and
            # the stress it causes.
            parts = [s.error_estimate for s in (thermal, structural) if s.error_estimate is not None]
            out.error_estimate = joint_estimate(
                parts, int(out.solver_info["matrix_size"]), "max_von_mises_Pa"
            )
        return out


def combined(
    thermal: Solution, structural: Solution, thermal_seconds: float, structural_seconds: float, config: dict
) -> Solution:
    """Both steps' fields (the structural ones first: von Mises on the deformed shape is the default view),
    quantities and facts."""
    out = Solution()
    for f in structural.fields:
        out.add_field(f)
    for f in thermal.fields:
        if f.name not in out.fields:
            out.add_field(f)
    out.quantities = {**thermal.quantities, **structural.quantities}
    info = structural.solver_info
    out.solver_info = {
        "analysis": "thermal-structural",
        "matrix_size": info.get("matrix_size"),
        "non_zeros": info.get("non_zeros"),
        "element_order": info.get("element_order"),
        "steps": {
            "thermal": {**thermal.solver_info, "seconds": round(thermal_seconds, 3)},
            "structural": {
                **{k: v for k, v in info.items() if k != "fields_from"},
                "seconds": round(structural_seconds, 3),
            },
        },
    }
    sources = fields_from_info(config)
    if sources:
        out.solver_info["fields_from"] = sources
    out.warnings = list(dict.fromkeys([*thermal.warnings, *structural.warnings]))
    out.extras = {**thermal.extras, **structural.extras}
    return out
