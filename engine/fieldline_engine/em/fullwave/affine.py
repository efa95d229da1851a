"""The full-wave operator split into frequency-independent matrices with scalar frequency factors:

  A(f) = K − k0²·M + j k0 η0·S_σ + Σ_p γ_p(f)·B_p + Σ_i γ_i(f)·B_i,   b_p(f) = c_p(f)·g_p

K the curl-curl stiffness, M the εr mass, S_σ the conductivity mass, B the boundary masses ∮E_t·W_t
of the ports and impedance walls. The port factor γ_p = j k0 η0/Z_p(f) is not polynomial in f for a
TE/TM port (β(f) = √(k² − k_c²)), but it multiplies a fixed matrix, so a reduced model projects B_p
once and evaluates γ_p per frequency. A PML (stretched coordinates with 1/k0 inside tensor products)
has no such split: `affine_terms` then returns None and says why.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass

import ngsolve as ng
import numpy as np
import scipy.sparse as sp

from fieldline_engine.em.constants import C0, ETA0
from fieldline_engine.em.fullwave.solver import FullwaveSolver


@dataclass
class AffineTerm:
    name: str
    matrix: sp.csr_matrix  # full space (Dirichlet rows included; solutions are 0 there)
    factor: Callable[[float], complex]  # scalar factor at a frequency in Hz


def _csr(form: ng.BilinearForm) -> sp.csr_matrix:
    with ng.TaskManager():
        form.Assemble()
    vals, cols, ptr = form.mat.CSR()
    n = form.mat.height
    return sp.csr_matrix((np.array(vals), np.array(cols), np.array(ptr)), shape=(n, n))


def _k0(f: float) -> float:
    return 2 * math.pi * f / C0


def affine_terms(solver: FullwaveSolver) -> tuple[list[AffineTerm] | None, str | None]:
    """The split of `solver`'s operator, or (None, reason) when it has none."""
    if solver.pml is not None:
        return None, "the radial PML's stretched-coordinate tensors depend on frequency non-affinely"
    fes, m = solver.fes, solver.media
    E, W = fes.TnT()

    def form(integrand) -> sp.csr_matrix:
        a = ng.BilinearForm(fes)
        a += integrand
        return _csr(a)

    terms = [
        AffineTerm("stiffness", form((m.inv_mu_r * ng.curl(E)) * ng.curl(W) * ng.dx), lambda f: 1.0),
        AffineTerm("mass", form((m.eps_r * E) * W * ng.dx), lambda f: -(_k0(f) ** 2)),
    ]
    if m.lossy:
        terms.append(AffineTerm("conduction", form((m.sigma * E) * W * ng.dx), lambda f: 1j * _k0(f) * ETA0))
    for port in solver.ports:
        terms.append(
            AffineTerm(
                f"port {port.port_id}",
                form(E.Trace() * W.Trace() * ng.ds(port.label)),
                lambda f, port=port: 1j * _k0(f) * ETA0 / port.propagation(_k0(f)).wave_impedance,
            )
        )
    for wall in solver.walls:

        def wall_factor(f: float, wall=wall) -> complex:
            z = complex(wall.impedance(f))
            return 1j * _k0(f) * ETA0 / z if z != 0 else 0.0

        terms.append(
            AffineTerm(f"wall {wall.label}", form(E.Trace() * W.Trace() * ng.ds(wall.label)), wall_factor)
        )
    return terms, None


def assemble(terms: list[AffineTerm], frequency: float) -> sp.csr_matrix:
    """Σ factor·matrix at one frequency (for checks against the solver's own assembly)."""
    out = terms[0].factor(frequency) * terms[0].matrix
    for t in terms[1:]:
        out = out + t.factor(frequency) * t.matrix
    return out.tocsr()
