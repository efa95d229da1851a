"""Steady-state response to harmonic loads: the structural loads as amplitudes, over a frequency band.

Mode superposition (default): u(ω) = Σᵢ φᵢ (φᵢᵀ F) / (ωᵢ² − ω² + 2jζᵢωᵢω) with the modal solve's
mass-normalised modes and modal damping ζ (`dampingRatio`, default 0.02), or, with `rayleighAlpha`/
`rayleighBeta`, ζᵢ = α/2ωᵢ + βωᵢ/2. The full method solves (K − ω²M + jωC) u = F at every frequency with
Rayleigh damping C = αM + βK (α = 2ζω₁ and β = 0 from `dampingRatio` alone) — exact for the mesh, and the
check on the superposition (which converges as modes are added). e^{+jωt}: velocity jωu, acceleration −ω²u.
"""

import math
from dataclasses import dataclass

import ngsolve as ng
import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import splu

from fieldline_engine.protocol import SILENT, ProgressSpan
from fieldline_engine.vibration.modal import ModalResult


@dataclass
class HarmonicResponse:
    frequencies: np.ndarray  # Hz
    # probe name → (nf, 3) complex displacement (m)
    probes: dict[str, np.ndarray]
    field_frequency: float
    field: np.ndarray  # (ndof,) complex displacement DOFs at field_frequency
    method: str


def probe_rows(fes: ng.FESpace, points: dict[str, tuple[float, float, float]]) -> dict[str, np.ndarray]:
    """Per probe, a (3, ndof) matrix giving its displacement from a DOF vector (the basis functions' values
    at the point)."""
    mesh = fes.mesh
    out: dict[str, np.ndarray] = {}
    gf = ng.GridFunction(fes)
    for name, p in points.items():
        mip = mesh(*p)
        rows = np.zeros((3, fes.ndof))
        # Each basis function of the element around the point, evaluated there (one element's worth).
        for dof in _element_dofs(fes, mip):
            gf.vec[:] = 0.0
            gf.vec[dof] = 1.0
            rows[:, dof] = np.asarray(gf(mip)).reshape(3)
        out[name] = rows
    return out


def _element_dofs(fes: ng.FESpace, mip) -> list[int]:
    element = ng.ElementId(ng.VOL, mip.nr)
    return [d for d in fes.GetDofNrs(element) if d >= 0]


def by_modes(
    modal: ModalResult,
    force: np.ndarray,
    frequencies: np.ndarray,
    damping: float | np.ndarray,  # ζ, one for all modes or one per elastic mode
    probes: dict[str, np.ndarray],
    field_frequency: float,
) -> HarmonicResponse:
    elastic = slice(modal.rigid, None)
    phi = modal.vectors[:, elastic]
    w2 = modal.eigenvalues[elastic]
    wi = np.sqrt(np.maximum(w2, 0.0))
    load = phi.T @ force  # modal forces

    def modal_amplitudes(f: float) -> np.ndarray:
        w = 2 * math.pi * f
        return load / (w2 - w * w + 2j * damping * wi * w)

    out = {name: np.zeros((len(frequencies), 3), dtype=complex) for name in probes}
    probe_modes = {name: rows @ phi for name, rows in probes.items()}
    for i, f in enumerate(frequencies):
        q = modal_amplitudes(f)
        for name, pm in probe_modes.items():
            out[name][i] = pm @ q
    field = phi @ modal_amplitudes(field_frequency)
    return HarmonicResponse(frequencies, out, field_frequency, field, "mode superposition")


def direct(
    modal: ModalResult,
    force: np.ndarray,
    frequencies: np.ndarray,
    alpha: float,
    beta: float,
    probes: dict[str, np.ndarray],
    field_frequency: float,
    progress: ProgressSpan = SILENT,
) -> HarmonicResponse:
    free = modal.free
    K_full, M_full = modal.scipy_matrices()
    K = K_full[free][:, free].tocsc()
    M = M_full[free][:, free].tocsc()
    del K_full, M_full
    C = alpha * M + beta * K
    out = {name: np.zeros((len(frequencies), 3), dtype=complex) for name in probes}
    field = None
    points = list(frequencies) + [field_frequency]
    for i, f in enumerate(points):
        w = 2 * math.pi * f
        lu = splu(sp.csc_matrix(K - w * w * M + 1j * w * C))
        u = np.zeros(len(force), dtype=complex)
        u[free] = lu.solve(force[free].astype(complex))
        if i < len(frequencies):
            for name, rows in probes.items():
                out[name][i] = rows @ u
            progress((i + 1) / len(points), f"Frequency {i + 1} of {len(frequencies)}")
        else:
            field = u
    return HarmonicResponse(
        np.asarray(frequencies), out, field_frequency, field, "full (direct) with Rayleigh damping"
    )
