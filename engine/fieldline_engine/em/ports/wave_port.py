"""A wave port ready for the solver: face geometry, mode shape, filling, excitation and voltage paths."""

import cmath
import math
from dataclasses import dataclass

import ngsolve as ng
import numpy as np

from fieldline_engine.em.ports.boundary_elements import edges_of, triangles_named
from fieldline_engine.em.ports.eigenmode import numeric_mode, wall_edges
from fieldline_engine.em.ports.modes import ModeShape, Propagation, analytic_mode, propagation
from fieldline_engine.em.ports.port_face import PortFace, analyse_port_face
from fieldline_engine.errors import InvalidInput

WAVE_PORT_MODES = ("TE10", "TE20", "TM01", "TEM")


@dataclass
class WavePort:
    port_id: str
    label: str  # boundary name in the NGSolve mesh
    face: PortFace
    mode: ModeShape
    eps_r: complex  # filling next to the port
    mu_r: complex
    amplitude: float = 1.0  # √W: amplitude 1 carries 1 W of incident modal power
    phase_deg: float = 0.0
    requested_mode: str = "TE10"

    @property
    def excitation(self) -> complex:
        return self.amplitude * cmath.exp(1j * math.radians(self.phase_deg))

    def propagation(self, k0: float) -> Propagation:
        return propagation(self.mode, k0, self.eps_r, self.mu_r)

    def voltage_path(self, samples: int = 400) -> tuple[np.ndarray, np.ndarray] | None:
        """Points and segment vectors of the path a port voltage is integrated along (None if undefined).

        Rectangle: across the narrow side at the middle of the broad side (the TE10 maximum);
        coax: radially from the inner to the outer conductor; circle: across the diameter along v.
        """
        f = self.face
        t = (np.arange(samples) + 0.5) / samples
        if f.shape == "rectangle":
            start = f.origin + 0.5 * f.dims["a"] * f.u_axis
            end = start + f.dims["b"] * f.v_axis
        elif f.shape == "coax":
            start = f.centroid + f.dims["inner"] * f.u_axis
            end = f.centroid + f.dims["outer"] * f.u_axis
        elif f.shape == "circle":
            start = f.centroid - f.dims["radius"] * f.v_axis
            end = f.centroid + f.dims["radius"] * f.v_axis
        else:
            return None
        pts = start + t[:, None] * (end - start)
        dl = np.repeat(((end - start) / samples)[None, :], samples, axis=0)
        return pts, dl

    def current_loop(self, samples: int = 400) -> tuple[np.ndarray, np.ndarray] | None:
        """A loop around the inner conductor of a coaxial port (mid-radius), oriented by n."""
        f = self.face
        if f.shape != "coax":
            return None
        r = math.sqrt(f.dims["inner"] * f.dims["outer"])
        phi = 2 * math.pi * (np.arange(samples) + 0.5) / samples
        pts = f.centroid + r * (np.cos(phi)[:, None] * f.u_axis + np.sin(phi)[:, None] * f.v_axis)
        # Current flowing into the model (along -n) is positive: loop sense is right-handed about -n.
        tangent = -np.sin(phi)[:, None] * f.u_axis + np.cos(phi)[:, None] * f.v_axis
        dl = -tangent * (2 * math.pi * r / samples)
        return pts, dl

    def describe(self, k0: float | None = None) -> dict[str, object]:
        out: dict[str, object] = {
            "port_id": self.port_id,
            "mode_requested": self.requested_mode,
            "mode": self.mode.name,
            "mode_family": self.mode.family,
            "mode_source": self.mode.source,
            "cutoff_frequency_hz": _cutoff_hz(self.mode, self.eps_r, self.mu_r),
            **self.face.describe(),
            "filling": {"eps_r": _num(self.eps_r), "mu_r": _num(self.mu_r)},
            "amplitude": self.amplitude,
            "phase_deg": self.phase_deg,
        }
        if self.mode.note:
            out["note"] = self.mode.note
        return out


def _num(z: complex) -> float | list[float]:
    z = complex(z)
    return z.real if z.imag == 0 else [z.real, z.imag]


def _cutoff_hz(mode: ModeShape, eps_r: complex, mu_r: complex) -> float:
    from fieldline_engine.em.constants import C0

    return float(C0 * mode.cutoff_wavenumber / (2 * math.pi * math.sqrt(abs(eps_r * mu_r))))


def boundary_triangles(mesh: ng.Mesh, label: str) -> tuple[np.ndarray, np.ndarray]:
    """Vertex coordinates (metres) and triangles (vertex numbers) of the boundary elements named `label`."""
    tris = triangles_named(mesh, {label})
    if not len(tris):
        raise InvalidInput(f"Wave port {label}: no faces carry this port.")
    verts = np.array(mesh.ngmesh.Coordinates(), dtype=np.float64)  # row k is vertex k (v.nr)
    return verts, tris


def outward_normal(mesh: ng.Mesh, label: str) -> np.ndarray:
    n = np.array(
        ng.Integrate(ng.specialcf.normal(3), mesh, ng.BND, definedon=mesh.Boundaries(label)), dtype=np.float64
    )
    return n / np.linalg.norm(n)


def build_wave_port(
    mesh: ng.Mesh,
    label: str,
    port_id: str,
    mode: str,
    eps_r: complex = 1.0,
    mu_r: complex = 1.0,
    amplitude: float = 1.0,
    phase_deg: float = 0.0,
    order: int = 2,
    pec: str | None = None,
    pmc: str | None = None,
) -> WavePort:
    """Analyses the port face and picks its mode: analytic when the cross-section is one, else numeric.
    `pmc`: symmetry-plane (PMC) face labels ("a|b"); a port whose perimeter runs along one is solved
    numerically with the wall's condition (the analytic modes assume metal all round)."""
    if mode not in WAVE_PORT_MODES:
        raise InvalidInput(f"Wave port {port_id}: mode '{mode}' is not one of {', '.join(WAVE_PORT_MODES)}.")
    verts, tris = boundary_triangles(mesh, label)
    n_out = outward_normal(mesh, label)
    face = analyse_port_face(label, verts, tris, f"Wave port {port_id}", outward=n_out)
    walls = wall_edges(mesh, pmc) if pmc else set()
    cut = bool(walls & edges_of(tris))  # a perimeter edge of the port lies on a PMC face
    shape = None if cut else analytic_mode(face, mode)
    if shape is None:
        shape = numeric_mode(
            mesh, face, mode, eps_r, mu_r, order=order, pec=pec, walls=walls if cut else set(), triangles=tris
        )
    return WavePort(port_id, label, face, shape, complex(eps_r), complex(mu_r), amplitude, phase_deg, mode)
