"""Config fields (spec 001 §3) that an analysis path does not use.

Every field of the analysis config is accepted, but not every solver path can honour every field.
Ignoring one silently would mislead: a field whose absence changes the physics (an impedance wall that
would become a magnetic wall, a PML whose outer boundary would become a perfect conductor) is refused
with a clear error; one that only adds an output or an accuracy option is named in a warning that the
results carry (`solver_info.warnings`).
"""

from typing import Any

from fieldline_engine.errors import InvalidInput

# The solver paths of `solve`: em/routing.py picks static or fullwave for an `em` job.
PATHS = ("static", "fullwave", "em-time", "em-eigen")

NO_ANIMATION_AT_DC = (
    "Animation (animate) needs a frequency above 0 Hz or a time-domain run: a static field has no phase to "
    "animate, so no frames were written."
)
S_PARAMETERS_NEED_PORTS = (
    "S-parameters (calculateSParameters / extractSParameters) come from wave ports on a full-wave or "
    "time-domain run; this analysis computed none."
)
NEUMANN_FLUX_NOT_USED = (
    "Neumann flux values act in static and quasi-static runs only: in full-wave, time-domain and eigenmode "
    "runs Neumann faces are magnetic walls (PMC) and their flux is not used."
)
ITERATIVE_SOLVER_DIRECT_ONLY_PATHS = (
    "The iterative solver choice (linearSolver) applies to static, quasi-static, frequency-domain full-wave "
    "and eigenmode runs; time-domain runs factorize their matrices directly."
)
DIRICHLET_NOT_FULLWAVE_SOURCE = (
    "Dirichlet voltages do not drive a full-wave run: Dirichlet faces are perfect conductors (PEC) and node "
    "voltages (dirichletConditions) are not used; the wave ports are the sources."
)
PORTS_PML_NOT_STATIC = (
    "Wave ports and the radial PML act in full-wave runs only (frequency above 0 Hz); this static or "
    "quasi-static run left them out."
)
ADAPTIVE_SWEEP_FREQUENCY_DOMAIN_ONLY = (
    "The adaptive fast sweep (sParamSweepType: adaptive) belongs to the frequency-domain analysis; a "
    "time-domain run gets its S-parameters from one pulse per port over the whole band."
)


def _uses_ports(config: dict[str, Any]) -> bool:
    return bool(config.get("useWavePorts")) and bool(config.get("wavePorts"))


def _dirichlet_voltages(config: dict[str, Any]) -> bool:
    groups = config.get("dirichletFaceConditions") or []
    return bool(config.get("dirichletConditions")) or any(float(g.get("voltage") or 0.0) for g in groups)


def _refuse(what: str, analysis: str, consequence: str, instead: str) -> InvalidInput:
    return InvalidInput(f"{what} not available in the {analysis} analysis ({consequence}). {instead}")


def check_options(config: dict[str, Any], path: str) -> list[str]:
    """Raises InvalidInput for a field the path cannot honour without changing the physics; returns
    warnings for the fields it leaves out otherwise."""
    if path not in PATHS:
        raise ValueError(f"unknown solver path {path!r}")
    warnings: list[str] = []
    wants_s = bool(config.get("calculateSParameters") or config.get("extractSParameters"))
    if path != "static" and any(float(n.get("flux") or 0.0) for n in config.get("neumannConditions") or []):
        warnings.append(NEUMANN_FLUX_NOT_USED)
    if path == "em-time" and str(config.get("linearSolver") or "auto") not in (
        "auto",
        "direct",
    ):
        warnings.append(ITERATIVE_SOLVER_DIRECT_ONLY_PATHS)
    if path == "em-time" and wants_s and config.get("sParamSweepType") == "adaptive":
        warnings.append(ADAPTIVE_SWEEP_FREQUENCY_DOMAIN_ONLY)
    if path == "em-time":
        if config.get("useRadialPML"):
            raise _refuse(
                "The radial PML (useRadialPML) is",
                "time-domain (em-time)",
                "the outer boundary would be a perfect conductor",
                "Turn the PML off and terminate lines with wave ports, or run the frequency-domain analysis.",
            )
    elif path == "em-eigen":
        if _uses_ports(config):
            raise _refuse(
                "Wave ports are",
                "eigenmode (em-eigen)",
                "port faces would act as magnetic walls",
                "Turn wave ports off; a cavity's walls are its outer faces.",
            )
        if config.get("useRadialPML"):
            raise _refuse(
                "The radial PML (useRadialPML) is",
                "eigenmode (em-eigen)",
                "the outer boundary would be a perfect conductor",
                "Turn the PML off.",
            )
        if wants_s:
            warnings.append(S_PARAMETERS_NEED_PORTS)
    elif path == "fullwave":
        if _dirichlet_voltages(config):
            warnings.append(DIRICHLET_NOT_FULLWAVE_SOURCE)
    else:
        if _uses_ports(config) or config.get("useRadialPML"):
            warnings.append(PORTS_PML_NOT_STATIC)
        if config.get("animate") and float(config.get("frequency") or 0.0) <= 0.0:
            warnings.append(NO_ANIMATION_AT_DC)
        if wants_s:
            warnings.append(S_PARAMETERS_NEED_PORTS)
    return warnings
