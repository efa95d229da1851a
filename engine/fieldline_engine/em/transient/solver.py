"""The time-domain solver: E-field wave equation on HCurl, stepped by one of the schemes.

    ε ∂²E/∂t² + σ ∂E/∂t + ∇×(μ⁻¹∇×E) = −∂J/∂t        (scaled by μ0 below; E in V/m, SI units)

PEC (E_t = 0) on the Dirichlet DOFs, matched wave ports and resistive gap sources as boundary damping,
volume currents as sources. H is recovered exactly in the discrete space from the time integral of E,
Φ(t) = ∫₀ᵗ E dt (trapezoidal, consistent with Newmark): μH = −∇×Φ, so the electromagnetic energy
W = ½∫ε|E|² + ½∫μ|H|² = (½ uᵀMu + ½ ΦᵀKΦ)/μ0 is what every scheme reports.
"""

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import ngsolve as ng
import numpy as np

from fieldline_engine.core.sparse import CsrArrays
from fieldline_engine.em.constants import MU0
from fieldline_engine.em.fullwave.media import Media, media_from_bodies
from fieldline_engine.em.fullwave.sparameters import port_current_weight
from fieldline_engine.em.materials import BodyMaterial
from fieldline_engine.em.ports.wave_port import WavePort
from fieldline_engine.em.transient.gap_source import GapSource
from fieldline_engine.em.transient.probe_rows import point_rows
from fieldline_engine.em.transient.schemes import SecondOrderSystem, make_scheme, spmm
from fieldline_engine.em.transient.sources import (
    SourceTerm,
    VolumeCurrent,
    current_source,
    make_forcing,
    port_source,
    time_domain_port,
)
from fieldline_engine.em.transient.stability import StabilityLimit, explicit_stability_limit
from fieldline_engine.em.transient.waveforms import Waveform
from fieldline_engine.errors import EngineError, InvalidInput
from fieldline_engine.limits import THREADED_MIN_DOFS, parallel
from fieldline_engine.post.vertex_fields import VertexSampler

# A direct factorization of the (real, SPD) step matrix beyond this many unknowns needs more memory and
# time per step than a worker should spend; the full-wave solver uses the same order of limit.
MAX_TRANSIENT_DOFS = 1_500_000
MAX_STEPS = 200_000
BLOW_UP_FIELD = 1e100  # V/m
BLOW_UP_CHECK_STEPS = 16


def transient_media(mesh: ng.Mesh, bodies: list[BodyMaterial], carrier_hz: float) -> tuple[Media, list[str]]:
    """Real ε, μ, σ. A loss tangent has no time-domain form of its own; it becomes the conductivity that
    gives the same loss at the carrier, σ = 2πf0·ε·tanδ (without a carrier it is left out, and said so)."""
    notes: list[str] = []
    converted = []
    for b in bodies:
        tan_d = float(getattr(b, "loss_tangent", 0.0) or 0.0)
        if tan_d and carrier_hz > 0:
            extra = tuple(
                s + 2 * math.pi * carrier_hz * e * tan_d
                for s, e in zip(b.conductivity, b.permittivity, strict=True)
            )
            converted.append(replace(b, conductivity=extra, loss_tangent=0.0))
        else:
            if tan_d:
                notes.append(
                    "A loss tangent was ignored: the baseband Gaussian has no carrier frequency to convert it at."
                )
            converted.append(replace(b, loss_tangent=0.0))
    return media_from_bodies(mesh, converted), sorted(set(notes))


class FrameHook(Protocol):
    """What the time loop calls at chosen steps with the state's E and Φ = ∫E dt (GridFunctions, read only)."""

    steps: list[int]

    def __call__(self, step: int, e: ng.GridFunction, phi: ng.GridFunction) -> None: ...


@dataclass
class Probe:
    name: str
    point: tuple[float, float, float]  # metres
    mip: object


@dataclass
class TransientRun:
    scheme: str
    time_step: float
    steps: int
    ndof: int
    times: np.ndarray  # (N+1,)
    port_modal: dict[str, np.ndarray]  # total modal amplitude at each port (units of the profile e)
    port_incident: dict[str, np.ndarray]
    port_voltage: dict[str, np.ndarray]
    port_current: dict[str, np.ndarray]
    gap_voltage: dict[str, np.ndarray]
    gap_current: dict[str, np.ndarray]
    probe_e: dict[str, np.ndarray]  # (N+1, 3)
    probe_h: dict[str, np.ndarray]
    energy_times: np.ndarray
    energy_electric: np.ndarray
    energy_magnetic: np.ndarray
    frame_times: list[float] = field(default_factory=list)
    frames_e: list[np.ndarray] = field(default_factory=list)
    frames_h: list[np.ndarray] = field(default_factory=list)
    final_e: np.ndarray | None = None
    final_h: np.ndarray | None = None
    # the final state as coefficient functions (E, H): grid fields sample them after the run
    final_fields: dict[str, Any] = field(default_factory=dict)
    stability: StabilityLimit | None = None
    # ports with an incident wave in this run (the configured drive, or the one port of `drive_port`)
    driven_ports: list[str] = field(default_factory=list)
    seconds_stepping: float = 0.0
    seconds_setup: float = 0.0
    factor: str = ""  # the step factor's backend (factor.py)
    columns: int = 1  # excitations stepped in this time loop
    threads: int = 1  # NGSolve threads the time loop ran with
    # port_id → the port records of a wave port driven alone in the same time loop (`also_drive`)
    port_drive_runs: dict[str, "TransientRun"] = field(default_factory=dict)


class TransientSolver:
    def __init__(
        self,
        mesh: ng.Mesh,
        media: Media,
        order: int,
        pec: str,
        waveform: Waveform,
        ports: list[WavePort] | None = None,
        gaps: list[GapSource] | None = None,
        currents: list[VolumeCurrent] | None = None,
        walls: list[tuple[str, float]] | None = None,
    ):
        """`walls`: resistive impedance walls (label, Z_s in Ω): n×H = E_t/Z_s, a loss on the boundary."""
        t0 = time.perf_counter()
        self.mesh, self.media, self.order, self.waveform = mesh, media, order, waveform
        self.fes = ng.HCurl(mesh, order=order, dirichlet=pec) if pec else ng.HCurl(mesh, order=order)
        if self.fes.ndof > MAX_TRANSIENT_DOFS:
            raise EngineError(
                "too_large",
                f"The time-domain system has {self.fes.ndof} unknowns (limit {MAX_TRANSIENT_DOFS}). "
                "Use a coarser mesh or a lower element order.",
            )
        self.ports = [time_domain_port(p, self.fes, waveform) for p in ports or []]
        self.gaps = gaps or []
        self.currents = currents or []
        u, w = self.fes.TnT()
        m_term = (media.eps_r * (1.0 / (299_792_458.0**2)) * u) * w * ng.dx
        k_term = (media.inv_mu_r * ng.curl(u)) * ng.curl(w) * ng.dx
        c_term = None
        if media.lossy:
            c_term = MU0 * (media.sigma * u) * w * ng.dx
        for p in self.ports:
            c_term = _add(c_term, (MU0 / p.impedance) * u.Trace() * w.Trace() * ng.ds(p.port.label))
        for g in self.gaps:
            c_term = _add(c_term, (MU0 / g.sheet_impedance) * u.Trace() * w.Trace() * ng.ds(g.label))
        for label, z_s in walls or []:
            c_term = _add(c_term, (MU0 / z_s) * u.Trace() * w.Trace() * ng.ds(label))
        self.system = SecondOrderSystem(self.fes, m_term, k_term, c_term)
        self.sources: list[SourceTerm] = [port_source(p) for p in self.ports if p.amplitude != 0]
        self.gap_vectors: list[np.ndarray] = []
        for g in self.gaps:
            lf = ng.LinearForm(self.fes)
            lf += g.source_field * w.Trace() * ng.ds(g.label)
            lf.Assemble()
            vec = lf.vec.FV().NumPy().copy()
            self.gap_vectors.append(vec)
            self.sources.append(SourceTerm(vec, MU0 / g.sheet_impedance, 0.0, f"voltage source {g.label}"))
        self.sources += [current_source(c, self.fes, i) for i, c in enumerate(self.currents)]
        if not self.sources:
            raise InvalidInput(
                "This time-domain model has no source: give a wave port a non-zero amplitude, add a voltage "
                "between Dirichlet face groups, or add a volume current."
            )
        self.seconds_setup = time.perf_counter() - t0

    @property
    def ndof(self) -> int:
        return int(self.fes.ndof)

    def stability_limit(self) -> StabilityLimit:
        return explicit_stability_limit(self.system)

    def probes_at(
        self, points: list[tuple[float, float, float]], names: list[str] | None = None
    ) -> tuple[list[Probe], list[str]]:
        """Probes at points (metres) inside the mesh; points outside are skipped with a note."""
        probes: list[Probe] = []
        notes: list[str] = []
        for i, p in enumerate(points):
            name = names[i] if names else f"P{i + 1}"
            mip = self.mesh(float(p[0]), float(p[1]), float(p[2]))
            if getattr(mip, "nr", -1) < 0:
                notes.append(f"Probe {name} at {tuple(p)} m is outside the mesh and was left out.")
                continue
            probes.append(Probe(name, (float(p[0]), float(p[1]), float(p[2])), mip))
        return probes, notes

    def run(
        self,
        scheme: str,
        dt: float,
        steps: int,
        probes: list[Probe] | None = None,
        frames: int = 0,
        vertex_count: int | None = None,
        energy_stride: int = 1,
        progress: Callable[[int, int], None] | None = None,
        stability: StabilityLimit | None = None,
        drive_port: str | None = None,
        record_currents: bool = True,
        also_drive: list[str] | None = None,
        on_sample: FrameHook | None = None,
    ) -> TransientRun:
        """`drive_port`: drive only that wave port (unit amplitude, zero phase; the other ports are matched
        loads, gap sources and volume currents are off) instead of the configured excitation: one column
        of the S-matrix. The factorization is shared with earlier runs of the same scheme and Δt.
        `record_currents`: integrate the coax port currents every step (not needed for S-parameters).
        `also_drive`: wave ports to drive alone in the same time loop, each as one more column of the
        state (they share every substitution); their port records come back in `run.port_drive_runs`.
        `on_sample`: called with (step, E, Φ) at the steps it names (adaptive refinement estimates the error
        of the history there, docs/adaptive.md); E and Φ = ∫E dt are the configured excitation's."""
        if steps < 1 or steps > MAX_STEPS:
            raise InvalidInput(
                f"The run needs {steps} time steps; between 1 and {MAX_STEPS} are allowed. "
                "Adjust endTime or timeStep."
            )
        probes = probes or []
        t_setup = time.perf_counter()
        sources, drive = self._drive(drive_port)
        extra = [(pid, *self._drive(pid)) for pid in also_drive or []]
        free = self.system.free  # the time loop steps these DOFs; the Dirichlet ones stay zero
        forcing = make_forcing([sources] + [s for _, s, _ in extra], self.waveform, dt, steps, rows=free)
        stepper = make_scheme(scheme, self.system, dt, forcing, columns=1 + len(extra), steps=steps)
        gf_e = ng.GridFunction(self.fes)
        gf_phi = ng.GridFunction(self.fes)
        gf_e.vec[:] = 0.0
        gf_phi.vec[:] = 0.0
        h_cf = (-1.0 / MU0) * (self.media.inv_mu_r * ng.curl(gf_phi))
        times = np.arange(steps + 1) * dt
        n_rec = steps + 1
        # Port modal amplitudes, port voltages and gap voltages are linear functionals of the DOFs: one
        # sparse (functionals × ndof) matrix gives all of them for every column with one product a step.
        rows: list[np.ndarray] = []
        modal_row, volt_row = {}, {}
        for p in self.ports:
            modal_row[p.port.port_id] = len(rows)
            rows.append(p.overlap / p.norm)
            if p.voltage is not None:
                volt_row[p.port.port_id] = len(rows)
                rows.append(p.voltage)
        # V = ΔV·∮E·e dA / ∮e·e dA: the gap voltage of the field's component along the source shape.
        gap_row = {}
        for g, vec in zip(self.gaps, self.gap_vectors, strict=True):
            gap_row[g.label] = len(rows)
            rows.append(vec * g.delta_v / g.field_norm)
        functionals = CsrArrays.from_dense_rows(np.vstack(rows)[:, free]) if rows else None
        outputs = np.zeros((n_rec, len(rows), 1 + len(extra)))
        modal = {pid: outputs[:, r, 0] for pid, r in modal_row.items()}
        volt = {pid: outputs[:, r, 0] for pid, r in volt_row.items()}
        # Port currents from the discrete H (coax): the integrand is built once, evaluated per step.
        current_integrands = {
            p.port.port_id: (ng.BoundaryFromVolumeCF(h_cf) * weight, self.mesh.Boundaries(p.port.label))
            for p in self.ports
            if record_currents and (weight := port_current_weight(p.port)) is not None
        }
        curr = {pid: np.zeros(n_rec) for pid in current_integrands}
        incident = {
            p.port.port_id: p.incident(self.waveform, times, *drive[p.port.port_id]) for p in self.ports
        }
        gap_v = {label: outputs[:, r, 0] for label, r in gap_row.items()}
        gap_emf = {
            g.label: g.delta_v * np.asarray(self.waveform.value(times), dtype=float) for g in self.gaps
        }
        # Probes: E from u and H from Φ as sparse rows (probe_rows.py), one product each a step.
        mips = [pr.mip for pr in probes]
        rows_e = point_rows(self.fes, mips, lambda g: g, free) if probes else None
        rows_h = (
            point_rows(self.fes, mips, lambda g: (-1.0 / MU0) * (self.media.inv_mu_r * ng.curl(g)), free)
            if probes
            else None
        )
        probe_e_all = np.zeros((n_rec, len(probes), 3))
        probe_h_all = np.zeros((n_rec, len(probes), 3))
        probe_e = {p.name: probe_e_all[:, k, :] for k, p in enumerate(probes)}
        probe_h = {p.name: probe_h_all[:, k, :] for k, p in enumerate(probes)}
        energy_idx = list(range(0, steps + 1, max(1, energy_stride)))
        if energy_idx[-1] != steps:
            energy_idx.append(steps)
        energy_set = set(energy_idx)
        w_e: list[float] = []
        w_m: list[float] = []
        n_frames = min(max(0, frames), steps)
        frame_steps = {round((k + 1) * steps / n_frames): k for k in range(n_frames)} if n_frames else {}
        run = TransientRun(
            scheme,
            dt,
            steps,
            self.ndof,
            times,
            modal,
            incident,
            volt,
            curr,
            gap_v,
            {},
            probe_e,
            probe_h,
            np.array([times[i] for i in energy_idx]),
            np.zeros(0),
            np.zeros(0),
            stability=stability,
            driven_ports=[pid for pid, (amp, _) in drive.items() if amp != 0],
        )
        run.seconds_setup = self.seconds_setup + (time.perf_counter() - t_setup)
        run.factor, run.columns = stepper.inv.backend, 1 + len(extra)
        u_all = stepper.u
        u_np = u_all[:, 0]  # the configured excitation: every record, energy, probes and frames
        e_np = gf_e.vec.FV().NumPy()
        phi_full = gf_phi.vec.FV().NumPy()  # what h_cf reads: Φ on every DOF, scattered when evaluated
        phi_np = np.zeros_like(u_np)  # Φ on the free DOFs
        u_old = np.zeros_like(u_np)
        sampler = VertexSampler(self.mesh) if (vertex_count is not None or frame_steps) else None
        hook_steps = set(on_sample.steps) if on_sample is not None else set()
        started = time.perf_counter()

        def record(n: int) -> None:
            if functionals is not None:
                outputs[n] = spmm(functionals, u_all)
            if rows_e is not None:
                probe_e_all[n] = (rows_e @ u_np).reshape(-1, 3)
                probe_h_all[n] = (rows_h @ phi_np).reshape(-1, 3)
            if curr:
                phi_full[free] = phi_np
                for pid, (integrand, region) in current_integrands.items():
                    curr[pid][n] = float(
                        ng.Integrate(integrand, self.mesh, ng.BND, definedon=region, order=6)
                    )
            if n in energy_set:
                w_e.append(0.5 * float(np.dot(u_np, self.system.M_csr @ u_np)) / MU0)
                w_m.append(0.5 * float(np.dot(phi_np, self.system.K_csr @ phi_np)) / MU0)
            if n in frame_steps:
                e_np[free] = u_np
                phi_full[free] = phi_np
                run.frame_times.append(n * dt)
                run.frames_e.append(sampler(gf_e)[:vertex_count])
                run.frames_h.append(sampler(h_cf)[:vertex_count])
            if on_sample is not None and n in hook_steps:
                e_np[free] = u_np
                phi_full[free] = phi_np
                on_sample(n, gf_e, gf_phi)

        record(0)
        last_pct = -1
        # NGSolve's threads (FIELDLINE_THREADS, limits.parallel) for the factor's substitutions and the
        # probes, on systems large enough to gain from them.
        run.threads = ng.GetNumThreads() if self.ndof >= THREADED_MIN_DOFS else 1
        with parallel(self.ndof):
            for n in range(1, steps + 1):
                u_old[:] = u_np
                stepper.step()
                # Blow-up (a scheme past its stability limit): stop long before the numbers overflow
                # (checked every BLOW_UP_CHECK_STEPS steps; inf and NaN fail the test too).
                if (n % BLOW_UP_CHECK_STEPS == 0 or n == steps) and not np.max(np.abs(u_all)) < BLOW_UP_FIELD:
                    raise EngineError(
                        "unstable",
                        f"The {scheme} run became unstable at step {n} (t = {n * dt:.4g} s); reduce timeStep.",
                    )
                phi_np += 0.5 * dt * (u_old + u_np)
                record(n)
                pct = (100 * n) // steps
                if progress is not None and pct != last_pct:
                    last_pct = pct
                    progress(n, steps)
        run.seconds_stepping = time.perf_counter() - started
        run.energy_electric = np.asarray(w_e)
        run.energy_magnetic = np.asarray(w_m)
        run.gap_current = {g.label: (gap_emf[g.label] - gap_v[g.label]) / g.resistance for g in self.gaps}
        e_np[free] = u_np
        phi_full[free] = phi_np
        run.final_fields = {"e": gf_e, "h": h_cf}
        if sampler is not None:
            run.final_e = sampler(gf_e)[:vertex_count]
            run.final_h = sampler(h_cf)[:vertex_count]
        for col, (pid, _, drv) in enumerate(extra, start=1):
            run.port_drive_runs[pid] = TransientRun(
                scheme,
                dt,
                steps,
                self.ndof,
                times,
                {q: outputs[:, r, col] for q, r in modal_row.items()},
                {p.port.port_id: p.incident(self.waveform, times, *drv[p.port.port_id]) for p in self.ports},
                {q: outputs[:, r, col] for q, r in volt_row.items()},
                {},
                {},
                {},
                {},
                {},
                np.zeros(0),
                np.zeros(0),
                np.zeros(0),
                driven_ports=[pid],
                seconds_stepping=run.seconds_stepping,
                seconds_setup=run.seconds_setup,
            )
        return run

    def _drive(self, drive_port: str | None) -> tuple[list[SourceTerm], dict[str, tuple[float, float]]]:
        """The source terms of a run and each port's incident (amplitude √W, phase rad)."""
        if drive_port is None:
            return self.sources, {p.port.port_id: (p.amplitude, p.phase) for p in self.ports}
        ids = [p.port.port_id for p in self.ports]
        if drive_port not in ids:
            raise InvalidInput(f"Wave port {drive_port} does not exist (ports: {', '.join(ids)}).")
        drive = {pid: (1.0 if pid == drive_port else 0.0, 0.0) for pid in ids}
        port = self.ports[ids.index(drive_port)]
        return [port_source(port, 1.0, 0.0)], drive


def _add(total, term):
    return term if total is None else total + term


__all__ = ["FrameHook", "TransientRun", "TransientSolver", "transient_media"]
