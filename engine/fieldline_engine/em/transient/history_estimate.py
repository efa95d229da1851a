"""The error estimate of a time-domain run's history for adaptive refinement (docs/adaptive.md): every pass runs
the whole transient; at MAX_ESTIMATED_FRAMES evenly spread steps (always the last) the field's energy-norm error
is estimated by flux recovery of E weighted by ε and of curl Φ = −μH weighted by 1/μ, each recovered body by
body (E's normal part and H's tangential part jump at material interfaces, which is not an error). The
electromagnetic energy W = ½∫ε|E|² + ½∫μ|H|² is the norm. Each instant's indicators are divided by that
instant's energy (core/adaptive/history.py): an element's indicator is its largest over the sampled instants, so
a pulse that travels draws refinement everywhere it went, and a ringing mode wherever its field is.

Instants before the source has put in a thousandth of the history's largest energy are left out: their field
is the source's first rounding-off noise, whose relative error would mark the source region for nothing."""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.core.adaptive.estimate import ErrorEstimate, Tracked, recovery_indicators
from fieldline_engine.core.adaptive.history import MAX_ESTIMATED_FRAMES, HistoryEstimate
from fieldline_engine.em.materials import BodyMaterial
from fieldline_engine.mesh.tet_model import TetModel

# An instant with less than this share of the largest sampled energy is not estimated (see above).
QUIET_ENERGY_SHARE = 1e-3


class WaveHistory:
    """The time loop's frame hook (`TransientSolver.run(on_sample=…)`) and, after the run, the estimate."""

    def __init__(
        self, model: TetModel, mesh: ng.Mesh, bodies: list[BodyMaterial], order: int, steps: int
    ) -> None:
        self.model, self.mesh, self.order = model, mesh, order
        count = min(MAX_ESTIMATED_FRAMES, steps)
        self.steps = sorted({max(1, round(k * steps / count)) for k in range(1, count + 1)})
        # Scalar weights per body (the mean of a diagonal tensor): ε for E, 1/μ for curl Φ (ν|curl Φ|² = μ|H|²).
        self.eps = mesh.MaterialCF(
            {f"body{i}": float(np.mean(b.permittivity)) for i, b in enumerate(bodies)}, default=0.0
        )
        self.nu = mesh.MaterialCF(
            {f"body{i}": 1.0 / float(np.mean(b.permeability)) for i, b in enumerate(bodies)}, default=0.0
        )
        self.frames: list[tuple[np.ndarray, float]] = []

    def __call__(self, step: int, e: ng.GridFunction, phi: ng.GridFunction) -> None:
        eta_e, norm_e = recovery_indicators(self.model, self.mesh, e, self.eps, self.order, per_body=True)
        eta_h, norm_h = recovery_indicators(
            self.model, self.mesh, ng.curl(phi), self.nu, self.order, per_body=True
        )
        self.frames.append((eta_e + eta_h, norm_e + norm_h))

    def estimate(self, unknowns: int, quantities: dict[str, Any], s: np.ndarray | None) -> ErrorEstimate:
        """`s`: the run's S-parameters over the pulse's band (complex, any shape), followed as HFSS's max |ΔS|."""
        history = HistoryEstimate()
        loudest = max((norm2 + float(eta2.sum()) for eta2, norm2 in self.frames), default=0.0)
        for eta2, norm2 in self.frames:
            if norm2 + float(eta2.sum()) >= QUIET_ENERGY_SHARE * loudest:
                history.add(eta2, norm2)
        default = "S" if s is not None else next((q for q in DEFAULT_QUANTITIES if q in quantities), None)
        out = history.estimate(self.model.nt, unknowns, default)
        if s is not None:
            out.tracked["S"] = Tracked(s, "absolute", "S-parameters")
        return out


def band_s_parameters(results: dict[str, Any]) -> np.ndarray | None:
    """The run's S over the band as a complex array: the full matrix of a port-by-port run ([k][q][p]), else the
    driven port's column (S_q1 per frequency); None without S. The frequencies are the config's or the pulse's
    band, the same on every pass, so the arrays compare entry by entry."""
    matrix = (results.get("s_parameters") or {}).get("matrix")
    if matrix is None:
        column = ((results.get("time_domain_info") or {}).get("frequency_response") or {}).get("s_parameters")
        matrix = list((column or {}).get("column", {}).values()) or None
    if matrix is None:
        return None
    pairs = np.asarray(matrix, dtype=float)
    return pairs[..., 0] + 1j * pairs[..., 1]


# The figure a time-domain run's passes table shows by default when it has no S: the first the run produced
# (a port's peak voltage before the ringing frequency: a matched line hardly rings).
DEFAULT_QUANTITIES = ("peak_port_voltage_V", "resonance_frequency_Hz", "peak_energy_J")
