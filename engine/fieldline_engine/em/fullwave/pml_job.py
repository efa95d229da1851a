"""The radial PML of a full-wave job (`useRadialPML`): the model's own air layer, or an added shell.

A model that carries its own air keeps it: when its outside is (nearly) a sphere around the bounding-box
centre (nearest/farthest outside vertex ≥ 0.95), one air body (εr = μr = 1, no loss) touches all of it,
and every other surface of the model (holes, interfaces, labelled faces) lies inside
r_in = (distance to the nearest outside point) − pmlThickness, that outer layer becomes the PML (no
re-meshing; the boundary behind it stays PEC).

Any other model is a radiator or scatterer in open space: an air sphere and a PML shell are meshed
around it (air_shell.py). Its outside faces then open onto the air (no condition) unless they are PEC
(a Dirichlet condition, or the surface of a metal body), which stay PEC sheets; wave ports on the
outside are backed by PEC; impedance walls on the outside are refused. Holes stay PEC as before.
"""

from dataclasses import dataclass
from typing import Any

import numpy as np

from fieldline_engine.em.constants import C0, EPS0, MU0
from fieldline_engine.em.fullwave.air_shell import (
    FARFIELD_LABEL,
    PML_INNER_LABEL,
    AirShell,
    build_air_shell,
)
from fieldline_engine.em.fullwave.exterior import exterior_face_mask
from fieldline_engine.em.fullwave.pml import RadialPml
from fieldline_engine.em.materials import BodyMaterial
from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel

SPHERE_TOLERANCE = 0.95  # nearest / farthest outside vertex for "the outside is a sphere"
INTERFACE_LABEL = "interface"
NO_CONDITION = (INTERFACE_LABEL, FARFIELD_LABEL, PML_INNER_LABEL)
VACUUM = BodyMaterial((EPS0,) * 3, (MU0,) * 3, (0.0,) * 3)


@dataclass
class PmlSetup:
    model: TetModel  # what is meshed and solved (the upload, or the upload plus the shell)
    labels: np.ndarray
    pec: str  # regex of the PEC boundary labels
    bodies: list[BodyMaterial]
    pml: RadialPml
    shell: AirShell | None
    reason: str  # why the shell was (or was not) added

    def describe_shell(self) -> dict[str, object]:
        if self.shell is None:
            return {"added": False, "reason": self.reason}
        return {**self.shell.describe(), "reason": self.reason}


def outer_boundary_distance(model: TetModel, centre: np.ndarray, rows: np.ndarray | None = None) -> float:
    """Distance from `centre` to the outer boundary, sampled at vertices, edge midpoints and centroids."""
    if rows is None:
        rows = model.face_outer_region < 0
    tris = model.vertices[model.faces[rows]]
    samples = [tris[:, i] for i in range(3)]
    samples += [(tris[:, i] + tris[:, (i + 1) % 3]) / 2 for i in range(3)]
    samples.append(tris.mean(axis=1))
    pts = np.concatenate(samples)
    return float(np.min(np.linalg.norm(pts - centre, axis=1)))


def pml_parameters(config: dict[str, Any]) -> tuple[float, float]:
    thickness = float(config.get("pmlThickness", 0.1) or 0.1)
    if not 0.01 <= thickness <= 0.5:
        raise InvalidInput("pmlThickness must be between 0.01 and 0.5 (metres).")
    sigma_max = float(config.get("pmlSigmaMax", 1e6) or 1e6)
    if sigma_max <= 0:
        raise InvalidInput("pmlSigmaMax must be above 0.")
    return thickness, sigma_max


def _is_air(b: BodyMaterial) -> bool:
    return (
        np.allclose(b.permittivity, EPS0, rtol=1e-3)
        and np.allclose(b.permeability, MU0, rtol=1e-3)
        and max(b.conductivity) == 0
        and b.loss_tangent == 0
    )


def own_air_layer_problem(
    model: TetModel, bodies: list[BodyMaterial], outside: np.ndarray, thickness: float
) -> str | None:
    """None when the model's own outer layer can be the PML, else why not (then a shell is added)."""
    centre = (model.vertices.min(axis=0) + model.vertices.max(axis=0)) / 2
    d = np.linalg.norm(model.vertices[np.unique(model.faces[outside])] - centre, axis=1)
    if d.min() < SPHERE_TOLERANCE * d.max():
        return "the model's outside is not a sphere"
    outer_bodies = np.unique(model.face_inner_region[outside])
    if len(outer_bodies) != 1 or not _is_air(bodies[int(outer_bodies[0])]):
        return "the model's outside is not a single air body"
    r_in = outer_boundary_distance(model, centre, outside) - thickness
    inner = [model.faces[~outside]]
    if model.interface_faces is not None:
        inner.append(model.interface_faces)
    pts = model.vertices[np.unique(np.concatenate(inner))] if sum(len(x) for x in inner) else centre[None]
    reach = float(np.linalg.norm(pts - centre, axis=1).max())
    if reach >= r_in:
        return (
            f"the structure reaches {reach:.4g} m from the centre, beyond the PML's inner radius {r_in:.4g} m"
        )
    return None


def radial_pml_for_model(
    model: TetModel, config: dict[str, Any], labels: np.ndarray, outside: np.ndarray | None = None
) -> RadialPml:
    """The PML as the outer layer of the model's own air region (`outside`: its outer surface,
    default every outer face)."""
    thickness, sigma_max = pml_parameters(config)
    lo, hi = model.vertices.min(axis=0), model.vertices.max(axis=0)
    centre = (lo + hi) / 2
    r_out = outer_boundary_distance(model, centre, outside)
    r_in = r_out - thickness
    if r_in <= 0.2 * r_out:
        raise InvalidInput(
            f"The radial PML ({thickness:g} m) does not fit: the model's outer boundary is only {r_out:.4g} m "
            "from its centre. Model more air around the structure or use a thinner pmlThickness."
        )
    # Ports and walls inside the layer would be stretched with it: refuse them.
    labelled = np.nonzero((model.face_outer_region < 0) & (labels != "default"))[0]
    if len(labelled):
        reach = np.linalg.norm(model.vertices[model.faces[labelled]] - centre, axis=2).max()
        if reach > r_in:
            raise InvalidInput(
                f"The radial PML starts {r_in:.4g} m from the model centre but a port or boundary condition "
                f"reaches {reach:.4g} m; move it inward or use a thinner pmlThickness."
            )
    return RadialPml(
        centre,
        r_in,
        thickness,
        sigma_max,
        notes=["PML = outer spherical layer of the uploaded air region; boundary behind it is PEC"],
    )


def shell_labels(model: TetModel, labels: np.ndarray, outside: np.ndarray, metal: list[int]) -> np.ndarray:
    """Face labels once the model's outside faces the shell's air."""
    out = labels.astype(object).copy()
    touching_metal = np.isin(model.face_inner_region, metal) | np.isin(model.face_outer_region, metal)
    out[touching_metal & (out == "default")] = "metal"
    impedance = outside & np.array([str(x).startswith("impedance_") for x in out])
    if impedance.any():
        raise InvalidInput(
            "An impedance boundary on the model's outside would sit between the model and the added air "
            "shell: with useRadialPML, put impedance walls inside the model or model the air yourself."
        )
    out[outside & (out == "default")] = INTERFACE_LABEL
    return out


def pec_regex(labels: np.ndarray) -> str:
    names = {str(x) for x in labels}
    pec = {
        x for x in names if x not in NO_CONDITION and not x.startswith(("port_", "impedance_", "neumann_"))
    }
    return "|".join(sorted(pec))


def setup_radial_pml(
    model: TetModel,
    labels: np.ndarray,
    pec: str,
    bodies: list[BodyMaterial],
    metal: list[int],
    config: dict[str, Any],
    highest_frequency: float,
    order: int,
) -> PmlSetup:
    thickness, sigma_max = pml_parameters(config)
    outside = exterior_face_mask(model)
    reason = own_air_layer_problem(model, bodies, outside, thickness)
    if reason is None:
        pml = radial_pml_for_model(model, config, labels, outside)
        return PmlSetup(model, labels, pec, bodies, pml, None, "the model's own outer air layer is the PML")
    merged_labels = shell_labels(model, labels, outside, metal)
    is_port = np.array([str(x).startswith("port_") for x in merged_labels])
    pec_names = set(pec_regex(merged_labels).split("|"))
    is_pec = np.array([str(x) in pec_names for x in merged_labels])
    shell = build_air_shell(
        model,
        merged_labels,
        outside,
        is_port,
        is_pec,
        thickness,
        sigma_max,
        C0 / highest_frequency,
        order,
    )
    shell.notes.append(f"shell added: {reason}")
    return PmlSetup(
        shell.model,
        shell.labels,
        pec_regex(shell.labels),
        bodies + [VACUUM] * 3,
        shell.pml,
        shell,
        reason,
    )
