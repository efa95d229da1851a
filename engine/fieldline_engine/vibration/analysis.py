"""`analysisType: "modal"` and `"harmonic"` as registered families (docs/vibration.md)."""

import math
from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.adaptive.estimate import ErrorEstimate, modes_estimate, recovery_indicators
from fieldline_engine.core.adaptive.settings import adaptive_requested
from fieldline_engine.core.elasticity.loads import applied_load
from fieldline_engine.core.elasticity.prestress import geometric_energies, prestress_cf
from fieldline_engine.core.elasticity.rigid_modes import free_rigid_motions
from fieldline_engine.core.elasticity.setup import elastic_materials, elastic_setup, elasticity_order
from fieldline_engine.core.fields import Field, Frames
from fieldline_engine.core.given_fields import fields_from_info, given_field, vertex_values
from fieldline_engine.core.linear_solve import solver_choice
from fieldline_engine.core.probes import probe_points, probes_inside
from fieldline_engine.core.registry import analysis_for
from fieldline_engine.core.solution import Solution
from fieldline_engine.errors import EngineError, InvalidInput
from fieldline_engine.mesh.curving import curve_mesh
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.protocol import ProgressSpan
from fieldline_engine.vibration.harmonic import by_modes, direct, probe_rows
from fieldline_engine.vibration.harmonic_adaptive import (
    adaptation_frequency,
    harmonic_estimate,
    max_amplitude,
)
from fieldline_engine.vibration.modal import ModalResult, solve_modes

DEFAULT_MODES = 6
DEFAULT_DAMPING = 0.02


def _vertex_shape(modal_vector: np.ndarray, nv: int) -> np.ndarray:
    block = len(modal_vector) // 3
    return np.stack([modal_vector[k * block : k * block + nv] for k in range(3)], axis=1)


def _normalised(shape: np.ndarray) -> np.ndarray:
    peak = float(np.max(np.linalg.norm(np.abs(shape), axis=1))) or 1.0
    return shape / peak


def _modal(
    model: TetModel,
    config: dict[str, Any],
    progress: ProgressSpan,
    count: int,
    prestress: np.ndarray | None = None,
):
    """`prestress`: a vertex stress field (Voigt, Pa) whose geometric stiffness joins K."""
    materials = elastic_materials(model, config)
    setup = elastic_setup(model, config)
    translations, axes = free_rigid_motions(model, setup)
    order = elasticity_order(config)
    mesh = build_ngsolve_mesh(model, setup.face_labels, setup.edge_regions(), setup.point_regions())
    curving = curve_mesh(mesh, model, config, order)
    min_f = config.get("modalMinFrequency")
    min_f = float(min_f) if min_f not in (None, 0, "") else None
    if min_f is not None and min_f < 0:
        raise InvalidInput("modalMinFrequency must be 0 Hz or above.")
    modal = solve_modes(
        mesh,
        setup,
        materials,
        order,
        count,
        len(translations) + len(axes),
        min_f,
        progress.sub(0.05, 0.8),
        solver_choice(config),
        prestress=None if prestress is None else prestress_cf(mesh, prestress),
    )
    return materials, setup, mesh, modal, order, curving


def modes_table(model: TetModel, modal: ModalResult) -> list[dict[str, Any]]:
    frequencies = modal.frequencies
    out = []
    cumulative = np.zeros(3)
    total = np.maximum(modal.total_mass, 1e-300)
    for i in range(len(frequencies)):
        rigid = i < modal.rigid
        mass = modal.effective_mass[i]
        if not rigid:
            cumulative = cumulative + mass / total
        out.append(
            {
                "mode": i + 1 - modal.rigid if not rigid else None,
                "frequency": float(frequencies[i]),
                "rigid_body": rigid,
                "shape": _normalised(_vertex_shape(modal.vectors[:, i], model.nv)).tolist(),
                "participation_factor": [float(x) for x in modal.participation[i]],
                "effective_mass": [float(x) for x in mass],
                "effective_mass_fraction_cumulative": [float(x) for x in cumulative] if not rigid else None,
                "residual": float(modal.residuals[i]),
            }
        )
    return out


def modes_error_estimate(
    model: TetModel, mesh: ng.Mesh, materials, modal: ModalResult, order: int
) -> ErrorEstimate:
    """Flux recovery of each requested elastic mode's strain weighted by Young's modulus (its energy-norm
    error), normalised per mode and summed; the passes stop when the requested frequencies settle."""
    shape = ng.GridFunction(modal.elasticity.fes)
    weight = materials.coefficient(mesh, "youngsModulus")
    per_mode = []
    for i in range(modal.rigid, len(modal.eigenvalues)):
        shape.vec.FV().NumPy()[:] = modal.vectors[:, i]
        per_mode.append(recovery_indicators(model, mesh, modal.elasticity.strain(shape), weight, order))
    return modes_estimate(
        per_mode, int(modal.elasticity.fes.ndof), list(modal.frequencies[modal.rigid :]), "frequencies_Hz"
    )


class ModalAnalysis:
    analysis_type = "modal"

    def supports_adaptive(self, config: dict[str, Any]) -> bool:
        return True

    def check(self, config: dict[str, Any]) -> list[str]:
        if config.get("prestress"):
            return []  # the loads prestress the model (a static step first)
        loads = [k for k in ("forceLoads", "pressureLoads", "temperatureLoad") if config.get(k)]
        return (
            [f"A modal analysis without prestress has no loads: {', '.join(loads)} were left out."]
            if loads
            else []
        )

    def solve(self, model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
        count = int(config.get("modalNumModes", DEFAULT_MODES))
        static, stress = _prestress(model, config, progress.sub(0.0, 0.3))
        span = progress.sub(0.3, 1.0) if stress is not None else progress
        try:
            materials, _setup, mesh, modal, order, curving = _modal(model, config, span, count, stress)
        except EngineError as exc:
            if stress is None or exc.code not in ("eigen_inaccurate_factor", "eigen_no_convergence"):
                raise
            raise InvalidInput(
                "The prestressed stiffness is not positive definite: the compression is at or above the "
                f"buckling load, so the part has no vibration modes under it ({exc.message})"
            ) from exc
        progress(0.85, "Mode shapes and effective masses")
        table = modes_table(model, modal)
        elastic = [m for m in table if not m["rigid_body"]]
        solution = Solution(
            solver_info={
                "matrix_size": int(modal.elasticity.fes.ndof),
                "non_zeros": modal.non_zeros,
                "analysis": "modal",
                "element_order": order,
                **modal.info,
                "eigen_iterations": modal.iterations,
                "max_residual": float(np.max(modal.residuals)),
                "eigen_seconds": round(modal.seconds, 3),
                "curved_geometry": curving,
            }
        )
        first = elastic[0] if elastic else table[0]
        solution.add_field(
            Field(
                "displacement",
                "Displacement (mode shape)",
                "",  # normalised to a largest displacement of 1: a shape, not a length
                "vector",
                np.asarray(first["shape"]),
                role="deformation",
            )
        )
        solution.animation = Frames(
            axis="mode",
            values=[m["frequency"] for m in elastic],
            frames=[{"displacement": np.asarray(m["shape"])} for m in elastic],
            labels=[f"mode {m['mode']} — {m['frequency']:.4g} Hz" for m in elastic],
        )
        solution.extras["modes"] = table
        if stress is not None:
            _prestress_effect(solution, modal, table, static, config)
        fractions = elastic[-1]["effective_mass_fraction_cumulative"] if elastic else [0, 0, 0]
        solution.quantities = {
            "first_frequency_Hz": first["frequency"],
            "modes_found": len(elastic),
            "rigid_body_modes": modal.rigid,
            "total_mass_kg": float(modal.total_mass[0]),
            "effective_mass_fraction": {"x": fractions[0], "y": fractions[1], "z": fractions[2]},
            **solution.quantities,
        }
        if adaptive_requested(config):
            solution.error_estimate = modes_error_estimate(model, mesh, materials, modal, order)
        return solution


def _prestress(
    model: TetModel, config: dict[str, Any], progress: ProgressSpan
) -> tuple[Solution | None, np.ndarray | None]:
    """The prestress of a modal run: `prestress: true` solves the structural keys' loads first (the registry's
    `structural` analysis: vibration imports no other family); a chained `stress` field (fieldsFrom) is used
    as it is. Returns the static step's Solution (None when chained) and the vertex stress."""
    given = given_field(config, "stress")
    if given is not None:
        if config.get("prestress"):
            raise InvalidInput(
                "Give the prestress either from this run's loads (prestress: true) or from another run "
                "(fieldsFrom with stress), not both."
            )
        return None, vertex_values(given, model.nv, "Prestress").reshape(-1, 6)
    if not config.get("prestress"):
        return None, None
    static_config = {**config, "analysisType": "structural"}
    static = analysis_for(static_config).solve(model, static_config, progress)
    stress = static.field("stress")
    if stress is None:  # the structural family's contract
        raise AssertionError("the static step returned no stress field")
    return static, stress.values


def _prestress_effect(
    solution: Solution, modal: ModalResult, table: list[dict], static: Solution | None, config: dict
) -> None:
    """The static step's quantities beside the modes, and whether the prestress raised or lowered the
    frequencies: per mode the unstressed Rayleigh quotient ω² − φᵀK_σφ of the same shape."""
    geometric = geometric_energies(modal.elasticity, modal.vectors)
    for row, g, value in zip(table, geometric, modal.eigenvalues, strict=True):
        row["unstressed_frequency_estimate"] = math.sqrt(max(value - g, 0.0)) / (2 * math.pi)
    elastic = [(row, g) for row, g in zip(table, geometric, strict=True) if not row["rigid_body"]]
    if static is not None:
        solution.quantities.update(static.quantities)
        solution.solver_info["static_step"] = {
            k: v for k, v in static.solver_info.items() if k not in ("fields_from",)
        }
        for f in static.fields:
            if f.name != "displacement":  # the mode shape keeps the name the viewer animates
                solution.add_field(f)
    else:
        solution.solver_info["fields_from"] = fields_from_info(config)
    if elastic:
        first, g = elastic[0]
        solution.quantities["first_frequency_unstressed_estimate_Hz"] = first["unstressed_frequency_estimate"]
        solution.quantities["prestress_effect"] = "raised" if g > 0 else "lowered" if g < 0 else "unchanged"


class HarmonicAnalysis:
    analysis_type = "harmonic"

    def check(self, config: dict[str, Any]) -> list[str]:
        return []

    def supports_adaptive(self, config: dict[str, Any]) -> bool:
        """Flux recovery of the complex response's strain at the adaptation frequency (harmonic_adaptive.py)."""
        return True

    def adaptive_pass_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """The passes solve the adaptation frequency alone; the sweep runs once on the final mesh."""
        return {**config, "animate": False}

    def solve(self, model: TetModel, config: dict[str, Any], progress: ProgressSpan) -> Solution:
        f_min = float(config.get("harmonicFreqMin", 0) or 0)
        f_max = float(config.get("harmonicFreqMax", 0) or 0)
        points = int(config.get("harmonicNumPoints", 101))
        if not 0 <= f_min < f_max:
            raise InvalidInput("harmonicFreqMin must be below harmonicFreqMax (Hz, from 0 up).")
        if not 2 <= points <= 2001:
            raise InvalidInput("harmonicNumPoints must be between 2 and 2001.")
        # An adaptive pass (the final sweep's config has no adaptiveRefinement) solves one frequency.
        adapt_at = adaptation_frequency(config, f_max) if adaptive_requested(config) else None
        damping = float(config.get("dampingRatio", DEFAULT_DAMPING))
        if not 0 < damping < 1:
            raise InvalidInput("dampingRatio must be above 0 and below 1.")
        alpha, beta = _rayleigh(config)
        method = str(config.get("harmonicMethod") or "modal")
        # Enough modes to cover the band with margin (the superposition converges with them).
        count = int(config.get("modalNumModes", 20))
        materials, setup, mesh, modal, order, curving = _modal(model, config, progress.sub(0, 0.5), count)
        if not (setup.forces or setup.pressures or any(setup.gravity)):
            raise InvalidInput("A harmonic analysis needs a load: add a force or a pressure (amplitudes).")
        if modal.rigid:
            raise InvalidInput(
                "A harmonic analysis needs supports: a free–free model has rigid-body modes that a harmonic load "
                "would drive without bound at 0 Hz."
            )
        f_form, _total = applied_load(mesh, setup, modal.elasticity, modal.elasticity.fes.TestFunction())
        f_form.Assemble()
        force = f_form.vec.FV().NumPy().copy()
        force[~np.isin(np.arange(len(force)), modal.free)] = 0.0
        probes, probe_warnings = probes_inside(mesh, model, probe_points(model, config))
        rows = probe_rows(modal.elasticity.fes, probes)
        frequencies = np.linspace(f_min, f_max, points) if adapt_at is None else np.array([adapt_at])
        field_f = adapt_at or float(config.get("harmonicFieldFrequency") or modal.frequencies[modal.rigid])
        if alpha or beta:
            # Rayleigh damping C = αM + βK: the mass-normalised modes diagonalise it, ζᵢ = α/2ωᵢ + βωᵢ/2.
            wi = 2 * math.pi * np.asarray(modal.frequencies[modal.rigid :])
            modal_damping: float | np.ndarray = alpha / (2 * wi) + beta * wi / 2
        else:
            alpha, modal_damping = 2 * damping * 2 * math.pi * modal.frequencies[0], damping
        if method == "full":
            response = direct(modal, force, frequencies, alpha, beta, rows, field_f, progress.sub(0.5, 0.9))
        else:
            response = by_modes(modal, force, frequencies, modal_damping, rows, field_f)
        shape = _vertex_shape(response.field, model.nv)
        solution = Solution(
            solver_info={
                "matrix_size": int(modal.elasticity.fes.ndof),
                "non_zeros": modal.non_zeros,
                "analysis": "harmonic",
                "element_order": order,
                "method": response.method,
                "modes_used": len(modal.eigenvalues),
                "highest_mode_Hz": float(modal.frequencies[-1]),
                "curved_geometry": curving,
            }
        )
        solution.add_field(
            Field(
                "displacement", f"Displacement at {field_f:.4g} Hz", "m", "vector", shape, role="deformation"
            )
        )
        if modal.frequencies[-1] < 1.5 * f_max and method != "full":
            solution.warnings.append(
                f"The highest mode used is {modal.frequencies[-1]:.4g} Hz, below 1.5 × the band's top "
                f"({f_max:.4g} Hz): ask for more modes (modalNumModes) for an accurate response near the top."
            )
        solution.warnings.extend(probe_warnings)
        solution.extras["harmonic_response"] = _response_entry(model, probes, response)
        peak = (
            max((np.max(np.linalg.norm(np.abs(v), axis=1)), name) for name, v in response.probes.items())
            if probes
            else None
        )
        solution.quantities = {
            "first_frequency_Hz": float(modal.frequencies[0]),
            "field_frequency_Hz": field_f,
        }
        if peak:
            values = response.probes[peak[1]]
            i = int(np.argmax(np.linalg.norm(np.abs(values), axis=1)))
            solution.quantities.update(
                peak_frequency_Hz=float(frequencies[i]), peak_displacement_m=float(peak[0])
            )
        solution.quantities.update(max_amplitude(model, shape))
        if adapt_at is not None:
            solution.solver_info["adaptation_frequency_Hz"] = adapt_at
            solution.error_estimate = harmonic_estimate(model, mesh, materials, modal, response.field, order)
        return solution


def _rayleigh(config: dict[str, Any]) -> tuple[float, float]:
    """`rayleighAlpha` (1/s) and `rayleighBeta` (s), both 0 when not given (then `dampingRatio` applies)."""
    alpha = float(config.get("rayleighAlpha") or 0)
    beta = float(config.get("rayleighBeta") or 0)
    for name, value in (("rayleighAlpha", alpha), ("rayleighBeta", beta)):
        if not (math.isfinite(value) and value >= 0):
            raise InvalidInput(f"{name} must be a finite number, 0 or above.")
    return alpha, beta


def _response_entry(model: TetModel, probes, response) -> dict[str, Any]:
    w = 2 * math.pi * response.frequencies

    def series(u: np.ndarray) -> dict[str, Any]:
        return {"amplitude": np.abs(u).tolist(), "phase_deg": np.degrees(np.angle(u)).tolist()}

    return {
        "frequencies": response.frequencies.tolist(),
        "method": response.method,
        "probes": [
            {
                "name": name,
                "point": [c / model.unit_scale for c in probes[name]],
                "displacement": series(u),
                "velocity": series(u * (1j * w)[:, None]),
                "acceleration": series(u * (-(w**2))[:, None]),
            }
            for name, u in response.probes.items()
        ],
        "units": {"frequency": "Hz", "displacement": "m", "velocity": "m/s", "acceleration": "m/s^2"},
    }
