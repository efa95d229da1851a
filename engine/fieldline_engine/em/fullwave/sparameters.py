"""S-parameter methods, line impedances and renormalisation (Kurokawa power waves).

The solver's S-matrix is modal: each port's wave is normalised to 1 W of its own mode ("generalised"
S-parameters). Methods:
- wave_port, field_integration: modal S as computed (amplitudes are overlap integrals of the port
  fields with the mode; both names mean this), no renormalisation.
- voltage_current: renormalised to `portImpedance` from each port's line impedance Z = V/I (coax:
  voltage across the gap, current around the inner conductor; hollow guides fall back to Z_PV).
- power_wave: renormalised to `portImpedance` from the power–voltage impedance Z_PV = |V|²/(2P).
"""

import math

import ngsolve as ng
import numpy as np

from fieldline_engine.em.ports.wave_port import WavePort

RENORMALISING_METHODS = ("voltage_current", "power_wave")
S_PARAM_METHODS = ("wave_port", "field_integration", "voltage_current", "power_wave")


def renormalise(s: np.ndarray, z_old: np.ndarray, z_new: np.ndarray) -> np.ndarray:
    """S referenced to real impedances z_old → referenced to z_new (per port), via V and I at each port.

    a' = P a + Q b, b' = Q a + P b with P, Q = (√(z0/zr) ± √(zr/z0))/2, so S' = (Q + P S)(P + Q S)⁻¹.
    """
    r = np.sqrt(np.asarray(z_old, dtype=complex) / np.asarray(z_new, dtype=complex))
    p = np.diag((r + 1 / r) / 2)
    q = np.diag((r - 1 / r) / 2)
    return (q + p @ s) @ np.linalg.inv(p + q @ s)


def _sample(
    gf_cf: ng.CoefficientFunction, mesh: ng.Mesh, points: np.ndarray, inward: np.ndarray
) -> np.ndarray:
    """Evaluates a volume CF at points nudged a hair into the domain (a port face is a boundary)."""
    size = float(np.ptp(points, axis=0).max()) or 1.0
    pts = points + 1e-7 * size * inward
    mips = mesh(pts[:, 0], pts[:, 1], pts[:, 2])
    vals = np.asarray(gf_cf(mips))
    return vals.reshape(len(points), -1)


def _face_integral(mesh: ng.Mesh, label: str, cf: ng.CoefficientFunction) -> complex:
    return complex(ng.Integrate(cf, mesh, ng.BND, definedon=mesh.Boundaries(label), order=10))


def _local_uv(port: WavePort) -> tuple[ng.CoefficientFunction, ng.CoefficientFunction]:
    f = port.face
    d = (ng.x - f.origin[0], ng.y - f.origin[1], ng.z - f.origin[2])
    u = sum(d[i] * f.u_axis[i] for i in range(3))
    v = sum(d[i] * f.v_axis[i] for i in range(3))
    return u, v


def port_voltage_weight(port: WavePort) -> ng.CoefficientFunction | None:
    """w with V = ∮ E·w dA over the port face, where the cross-section allows a face integral:
    coax w = ρ̂/(2πρ) (the radial line integral averaged over φ); rectangle w = v̂·(2/a)·sin(πu/a)
    (the centre-line voltage of the TE10 part). Linear in E, so the time-domain solver assembles it
    once as a vector."""
    f = port.face
    if f.shape == "coax":
        u, v = _local_uv(port)
        rho2 = u * u + v * v
        return (ng.CF(tuple(f.u_axis)) * u + ng.CF(tuple(f.v_axis)) * v) / (2 * math.pi * rho2)
    if f.shape == "rectangle":
        u, _ = _local_uv(port)
        a = f.dims["a"]
        return ng.CF(tuple(f.v_axis)) * ((2 / a) * ng.sin(math.pi * u / a))
    return None


def port_voltage(port: WavePort, mesh: ng.Mesh, e_cf: ng.CoefficientFunction) -> complex | None:
    """Voltage across the port: a face integral (accurate, no point sampling) where the cross-section
    allows (`port_voltage_weight`), else a line integral of sampled E along the port's voltage path."""
    weight = port_voltage_weight(port)
    if weight is not None:
        return _face_integral(mesh, port.label, ng.BoundaryFromVolumeCF(e_cf) * weight)
    path = port.voltage_path()
    if path is None:
        return None
    pts, dl = path
    return complex(np.sum(_sample(e_cf, mesh, pts, -port.face.normal) * dl))


def port_current_weight(port: WavePort) -> ng.CoefficientFunction | None:
    """w with I = ∮ H·w dA: the current into the model on the inner conductor of a coaxial port, ∮H·dl
    averaged over the radius, w = φ̂/(b − a) with φ̂ right-handed about the inward direction −n."""
    f = port.face
    if f.shape != "coax":
        return None
    u, v = _local_uv(port)
    rho = ng.sqrt(u * u + v * v)
    rho_hat = (ng.CF(tuple(f.u_axis)) * u + ng.CF(tuple(f.v_axis)) * v) / rho
    inward = ng.CF(tuple(-f.normal))
    return ng.Cross(inward, rho_hat) / (f.dims["outer"] - f.dims["inner"])


def port_current(port: WavePort, mesh: ng.Mesh, h_cf: ng.CoefficientFunction) -> complex | None:
    """Current into the model on the inner conductor of a coaxial port (`port_current_weight`)."""
    weight = port_current_weight(port)
    if weight is None:
        return None
    return _face_integral(mesh, port.label, ng.BoundaryFromVolumeCF(h_cf) * weight)


def line_impedances(
    port: WavePort,
    mesh: ng.Mesh,
    e_cf: ng.CoefficientFunction,
    h_cf: ng.CoefficientFunction,
    s_pp: complex,
) -> dict[str, float | None]:
    """Characteristic impedances from the FEM fields at port p with only p driven (1 W incident).

    The total V and I hold the incident and reflected waves: V = V⁺(1+S_pp), I = V⁺(1−S_pp)/Z0, so
    Z_VI = V(1−S_pp)/(I(1+S_pp)). Z_PV uses the incident voltage V⁺ = V/(1+S_pp) and P = 1 W.
    """
    v = port_voltage(port, mesh, e_cf)
    if v is None:
        return {"z_pv_ohm": None, "z_vi_ohm": None}
    v_inc = v / (1 + s_pp)
    z_pv = abs(v_inc) ** 2 / 2.0
    i = port_current(port, mesh, h_cf)
    z_vi = None
    if i is not None and abs(i) > 0:
        z_vi = float(abs(v * (1 - s_pp) / (i * (1 + s_pp))))
    return {"z_pv_ohm": float(z_pv), "z_vi_ohm": z_vi}


def reference_line_impedance(method: str, z: dict[str, float | None]) -> float | None:
    if method == "voltage_current":
        return z.get("z_vi_ohm") or z.get("z_pv_ohm")
    if method == "power_wave":
        return z.get("z_pv_ohm")
    return None


def db(x: complex) -> float:
    return 20 * math.log10(max(abs(x), 1e-300))
