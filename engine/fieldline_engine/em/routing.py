"""Which solver an `em` job goes to. Kept in one small function shared by the static and full-wave paths."""

from typing import Any

FULLWAVE_MODES = ("fullwave", "full-wave", "full_wave", "rf")
# An explicit quasi-static mode keeps impedance faces in the quasi-static solve (lumped Z to ground).
QUASISTATIC_MODES = ("quasistatic", "quasi-static", "static", "electrostatic")


def em_solver_for(config: dict[str, Any]) -> str:
    """'fullwave' for time-harmonic Maxwell, 'static' for the static (frequency 0) and quasi-static
    (frequency > 0 driven by voltages, see em/quasistatics.py) solvers.

    Full-wave when the frequency is above 0 and the model uses wave ports, a PML or impedance
    boundaries, or the config asks for it with `mode: "fullwave"`.
    """
    if str(config.get("mode") or "").lower() in FULLWAVE_MODES or _sweep_only(config):
        return "fullwave"
    if float(config.get("frequency") or 0.0) <= 0.0:
        return "static"
    if str(config.get("mode") or "").lower() in QUASISTATIC_MODES:
        return "static"
    uses_ports = bool(config.get("useWavePorts")) and bool(config.get("wavePorts"))
    uses_pml = bool(config.get("useRadialPML"))
    uses_impedance = bool(config.get("impedanceConditions"))
    return "fullwave" if (uses_ports or uses_pml or uses_impedance) else "static"


def _sweep_only(config: dict[str, Any]) -> bool:
    """An S-parameter sweep over wave ports is full-wave even when the single frequency is left at 0."""
    wants_s = bool(config.get("calculateSParameters") or config.get("extractSParameters"))
    return wants_s and bool(config.get("useWavePorts")) and bool(config.get("wavePorts"))
