"""Time-harmonic Maxwell in HCurl (Nédélec order 1–3), phasors e^{+jωt}.

Weak form over the model Ω with wave ports Γ_p, impedance walls Γ_i and PEC elsewhere:
  ∫ μr⁻¹ ∇×E·∇×W − k0²εr E·W + j k0 η0 σ E·W dx
    + Σ_p γ_p ∮ E_t·W_t + Σ_i (j k0 η0 / Z_s) ∮ E_t·W_t  =  Σ_p 2 γ_p a_p ∮ e_p·W_t
with γ_p = j k0 η0 / Z_p (Z_p the port mode's wave impedance). The port term is the exact one-way
condition for the port's mode (first-order absorbing for the others), so ports must sit where higher
modes have decayed. All terms share one BilinearForm whose coefficients are Parameters: a new
frequency re-assembles and refactorizes in place (same sparsity, symbolic analysis reused).
"""

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import ngsolve as ng
import numpy as np

from fieldline_engine.em.constants import C0, ETA0
from fieldline_engine.em.fullwave.iterative import (
    DEFAULT_MAX_ITERATIONS,
    DEFAULT_TOLERANCE,
    IterativeInverse,
    fullwave_method,
    s_only_tolerance,
)
from fieldline_engine.em.fullwave.media import Media
from fieldline_engine.em.fullwave.port_processes import port_processes, solve_shared
from fieldline_engine.em.ports.wave_port import WavePort
from fieldline_engine.errors import EngineError
from fieldline_engine.limits import address_space_limit_mb

# A direct factorization of complex, indefinite Maxwell systems beyond this many unknowns needs more
# memory than a worker has; refuse with advice instead of thrashing.
MAX_DIRECT_DOFS = 1_500_000


@dataclass
class ImpedanceWall:
    label: str
    impedance: Callable[[float], complex]  # surface impedance in Ω at a frequency in Hz (e^{+jωt})
    description: str = ""


@dataclass
class FrequencySolution:
    frequency: float
    k0: float
    s: np.ndarray  # (P, P) complex, S[q, p]: port q's outgoing wave when port p is driven
    excitations: list[ng.GridFunction] = field(default_factory=list)  # one per port, 1 W incident
    port_props: list[dict[str, object]] = field(default_factory=list)
    # Iterative path: S from the plain port overlaps, before the adjoint-residual correction that gives `s`.
    s_uncorrected: np.ndarray | None = None


@dataclass
class PortSolve:
    """One port's solve at one frequency: the solution on every unknown and, on the iterative path, the
    residual b − A x on the free unknowns (the adjoint correction needs both)."""

    port: int
    x: np.ndarray
    residual: np.ndarray | None = None


class _ComplexParameter:
    def __init__(self, value: complex = 0.0):
        self.re, self.im = ng.Parameter(0.0), ng.Parameter(0.0)
        self.set(value)

    def set(self, value: complex) -> None:
        self.re.Set(float(complex(value).real))
        self.im.Set(float(complex(value).imag))

    @property
    def value(self) -> complex:
        return complex(self.re.Get(), self.im.Get())

    @property
    def cf(self) -> ng.CoefficientFunction:
        return self.re + 1j * self.im


class FullwaveSolver:
    def __init__(
        self,
        mesh: ng.Mesh,
        media: Media,
        order: int,
        pec: str,
        ports: list[WavePort],
        walls: list[ImpedanceWall] | None = None,
        pml=None,  # fieldline_engine.em.fullwave.pml.RadialPml
        inverse: str = "umfpack",
        metal: str | None = None,  # materials (regex) of PEC bodies: left out, E = 0 on their surfaces
        linear_solver: str = "direct",  # `linearSolver`: direct, auto, or an iterative choice (iterative.py)
        tolerance: float = DEFAULT_TOLERANCE,
        max_iterations: int = DEFAULT_MAX_ITERATIONS,
    ):
        self.mesh, self.media, self.order = mesh, media, order
        self.ports, self.walls, self.pml = ports, walls or [], pml
        self.inverse = inverse
        self.fes = (
            ng.HCurl(mesh, order=order, complex=True, dirichlet=pec)
            if pec
            else ng.HCurl(mesh, order=order, complex=True)
        )
        self.method = fullwave_method(linear_solver, self.fes.ndof, address_space_limit_mb())
        if self.method == "direct" and self.fes.ndof > MAX_DIRECT_DOFS:
            raise EngineError(
                "too_large",
                f"The full-wave system has {self.fes.ndof} unknowns (limit {MAX_DIRECT_DOFS} for the direct "
                "solver). Use linearSolver 'gmres-bddc', a coarser mesh or a lower element order.",
            )
        self.free_dofs = self.fes.FreeDofs()
        if metal:
            self.free_dofs = self.fes.FreeDofs() & ~self.fes.GetDofs(mesh.Materials(metal))
        self.k0 = ng.Parameter(1.0)
        self.port_gamma = [_ComplexParameter() for _ in ports]
        self.wall_gamma = [_ComplexParameter() for _ in self.walls]
        self._build_forms()
        self._inv = None
        # BDDC registers with the form before its first assembly, and is rebuilt by each one.
        self.iterative = (
            IterativeInverse(self.a, self.free_dofs, tolerance, max_iterations)
            if self.method == "iterative"
            else None
        )
        self._mode_norms = [self._integrate_bnd(p.mode.cf() * p.mode.cf(), p.label) for p in ports]

    # --- assembly -----------------------------------------------------------------------------
    def _build_forms(self) -> None:
        E, W = self.fes.TnT()
        m = self.media
        k0 = self.k0
        # Every term is E·W without conjugation (PML tensors are diagonal), so A = Aᵀ: the iterative path
        # stores one triangle, which halves the memory traffic of its matrix-vector products.
        iterative = self.method == "iterative"
        a = ng.BilinearForm(self.fes, symmetric=iterative, symmetric_storage=iterative)
        pml_everywhere = self.pml is not None and self.pml.regex is None
        if not pml_everywhere:
            dx = ng.dx if self.pml is None else ng.dx(definedon=self.mesh.Materials(self.pml.outside_regex))
            a += (m.inv_mu_r * ng.curl(E)) * ng.curl(W) * dx
            a += -(k0 * k0) * (m.eps_r * E) * W * dx
        if m.lossy:
            a += 1j * k0 * ETA0 * (m.sigma * E) * W * ng.dx
        if self.pml is not None:
            lam, lam_inv = self.pml.tensors(k0)
            dxp = ng.dx if pml_everywhere else ng.dx(definedon=self.mesh.Materials(self.pml.regex))
            a += (m.inv_mu_r * (lam_inv * ng.curl(E))) * ng.curl(W) * dxp
            a += -(k0 * k0) * (m.eps_r * (lam * E)) * W * dxp
        for port, gamma in zip(self.ports, self.port_gamma, strict=True):
            a += gamma.cf * E.Trace() * W.Trace() * ng.ds(port.label)
        for wall, gamma in zip(self.walls, self.wall_gamma, strict=True):
            a += gamma.cf * E.Trace() * W.Trace() * ng.ds(wall.label)
        self.a = a
        # ∮ e_p·W_t: the port's source shape and, dotted with a solution, its modal overlap.
        self.overlaps = []
        for port in self.ports:
            g = ng.LinearForm(self.fes)
            g += port.mode.cf() * W.Trace() * ng.ds(port.label)
            g.Assemble()
            self.overlaps.append(g.vec.FV().NumPy().copy())

    def _integrate_bnd(self, cf: ng.CoefficientFunction, label: str) -> float:
        return float(np.real(ng.Integrate(cf, self.mesh, ng.BND, definedon=self.mesh.Boundaries(label))))

    @property
    def ndof(self) -> int:
        return int(self.fes.ndof)

    @property
    def nze(self) -> int:
        return int(self.a.mat.nze)

    # --- solving ------------------------------------------------------------------------------
    def solve_setup(self, frequency: float) -> list:
        """Sets the frequency, assembles and factorizes; returns each port's propagation data."""
        if frequency <= 0:
            raise EngineError("invalid_input", "A full-wave analysis needs a frequency above 0 Hz.")
        k0 = 2 * math.pi * frequency / C0
        self.k0.Set(k0)
        props = [p.propagation(k0) for p in self.ports]
        for gamma, prop in zip(self.port_gamma, props, strict=True):
            gamma.set(1j * k0 * ETA0 / prop.wave_impedance)
        for gamma, wall in zip(self.wall_gamma, self.walls, strict=True):
            z = complex(wall.impedance(frequency))
            gamma.set(1j * k0 * ETA0 / z if z != 0 else 0.0)
        with ng.TaskManager():
            self.a.Assemble()
        if self.iterative is not None:
            self.iterative.frequency = frequency
            return props
        # UMFPACK outside the TaskManager: it threads through BLAS, not through NGSolve's tasks.
        if self._inv is None:
            self._inv = self.a.mat.Inverse(self.free_dofs, inverse=self.inverse)
        else:
            self._inv.Update()
        return props

    def apply_inverse(
        self, rhs: ng.BaseVector, port: int = 0, tolerance: float | None = None
    ) -> ng.BaseVector:
        """A⁻¹ rhs on the free unknowns (zero on the fixed ones) at the frequency of the last solve_setup;
        `tolerance` overrides the iterative solver's own."""
        if self.iterative is not None:
            return self.iterative.solve(rhs, port, tolerance)
        x = rhs.CreateVector()
        with ng.TaskManager():
            x.data = self._inv * rhs
        return x

    def describe_linear_solver(self) -> dict[str, object]:
        if self.iterative is not None:
            return self.iterative.describe()
        return {"linear_solver": f"direct ({self.inverse})"}

    def incident_scale(self, p: int, props: list) -> float:
        """Incident amplitude (in units of port p's mode shape) that carries 1 W: ½·a²·N_p/|Z_p| = 1."""
        return math.sqrt(2 * abs(props[p].wave_impedance) / self._mode_norms[p])

    def rhs_coefficient(self, p: int, k0: float, props: list) -> complex:
        """c_p with right-hand side c_p·g_p (g_p = overlaps[p]) for 1 W incident at port p."""
        gamma = 1j * k0 * ETA0 / props[p].wave_impedance
        return 2 * gamma * self.incident_scale(p, props)

    def s_column(self, overlaps_x: np.ndarray, p: int, props: list) -> np.ndarray:
        """S[:, p] from the overlaps g_q·x (q = 0…P−1) of the solution x with port p driven."""
        n = len(self.ports)
        col = np.zeros(n, dtype=complex)
        for q in range(n):
            amp_q = complex(overlaps_x[q]) / self._mode_norms[q]  # (a+b) in e_q units
            if q == p:
                amp_q -= self.incident_scale(p, props)
            col[q] = amp_q / self.incident_scale(q, props)
        return col

    def solve(self, frequency: float, keep_fields: bool = True) -> FrequencySolution:
        pieces = self.solve_ports(frequency, range(len(self.ports)), keep_fields)
        return self.combine(frequency, pieces, keep_fields)

    def solve_ports(
        self, frequency: float, ports: Iterable[int], keep_fields: bool = True
    ) -> list[PortSolve]:
        """Assembles at `frequency` and solves with each of `ports` driven (1 W incident). An MPI rank may
        hold only some of a frequency's ports (distributed.py); `combine` joins the pieces into S."""
        props = self.solve_setup(frequency)
        k0 = 2 * math.pi * frequency / C0
        # Without fields only S is wanted, and the corrected S below needs far less of each solve.
        tolerance = (
            None if keep_fields or self.iterative is None else s_only_tolerance(self.iterative.tolerance)
        )

        def solve_one(p: int) -> PortSolve:
            rhs = self.a.mat.CreateColVector()
            rhs.FV().NumPy()[:] = self.rhs_coefficient(p, k0, props) * self.overlaps[p]
            x = self.apply_inverse(rhs, p, tolerance)
            residual = None
            if self.iterative is not None:
                residual = self.iterative.last_residual.FV().NumPy().copy()
            return PortSolve(p, x.FV().NumPy().copy(), residual)

        ports = list(ports)
        processes = port_processes(len(ports), self.ndof) if self.iterative is not None else 1
        if processes <= 1:
            return [solve_one(p) for p in ports]
        # Each process solves its share of the ports on its share of the threads (port_processes.py).
        pieces, children = solve_shared(ports, processes, solve_one, self.iterative.records)
        self.iterative.port_processes.append({"frequency": frequency, "children": children})
        return pieces

    def combine(
        self, frequency: float, pieces: list[PortSolve], keep_fields: bool = True
    ) -> FrequencySolution:
        """S (adjoint-corrected on the iterative path) and, with `keep_fields`, the port fields from every
        port's solve at `frequency`."""
        k0 = 2 * math.pi * frequency / C0
        props = [p.propagation(k0) for p in self.ports]
        n = len(self.ports)
        by_port = {piece.port: piece for piece in pieces}
        xs = [by_port[p].x for p in range(n)]
        overlaps_x = np.array([[np.dot(g, x) for x in xs] for g in self.overlaps])  # [q, p] = g_q · x_p
        fields: list[ng.GridFunction] = []
        if keep_fields:
            for x in xs:
                gf = ng.GridFunction(self.fes)
                gf.vec.FV().NumPy()[:] = x
                fields.append(gf)
        s = np.column_stack([self.s_column(overlaps_x[:, p], p, props) for p in range(n)])
        residuals = [by_port[p].residual for p in range(n)]
        if any(r is None for r in residuals):
            return FrequencySolution(frequency, k0, s, fields, port_props_dicts(props))
        # A = Aᵀ (no conjugated terms), so port q's solve is also the adjoint solve of the overlap g_q·x:
        # g_q·x_p + x_q·r_p / c_q (r_p = b_p − A x_p) is exact up to a product of the two solves' errors,
        # where the plain overlap carries the error of one (issue 19: ≈ 4e-10 instead of 4.5e-6 at 1e-6).
        coefficients = [self.rhs_coefficient(q, k0, props) for q in range(n)]
        corrected = overlaps_x + np.array(
            [[np.dot(xs[q], residuals[p]) / coefficients[q] for p in range(n)] for q in range(n)]
        )
        s_corrected = np.column_stack([self.s_column(corrected[:, p], p, props) for p in range(n)])
        if self.iterative is not None:
            self.iterative.record_s_correction(frequency, float(np.abs(s_corrected - s).max()))
        return FrequencySolution(frequency, k0, s_corrected, fields, port_props_dicts(props), s_uncorrected=s)

    def combined_field(self, sol: FrequencySolution) -> ng.GridFunction:
        """Superposition of the port excitations with each port's amplitude (√W) and phase."""
        gf = ng.GridFunction(self.fes)
        gf.vec[:] = 0
        for port, g in zip(self.ports, sol.excitations, strict=True):
            gf.vec.data += port.excitation * g.vec
        return gf

    def magnetic_field(self, e_field: ng.CoefficientFunction, frequency: float) -> ng.CoefficientFunction:
        """H = j/(ωμ0) μr⁻¹ ∇×E (e^{+jωt})."""
        omega = 2 * math.pi * frequency
        mu0 = ETA0 / C0
        return (1j / (omega * mu0)) * (self.media.inv_mu_r * ng.curl(e_field))


def port_props_dicts(props: list) -> list[dict[str, object]]:
    return [
        {
            "beta_rad_per_m": _pair(pr.beta),
            "wave_impedance_ohm": _pair(pr.wave_impedance),
            **({"line_impedance_ohm": _pair(pr.line_impedance)} if pr.line_impedance is not None else {}),
            "propagating": pr.propagating,
        }
        for pr in props
    ]


def _pair(z: complex) -> float | list[float]:
    z = complex(z)
    return z.real if abs(z.imag) < 1e-12 * max(1.0, abs(z.real)) else [z.real, z.imag]
