"""The radial PML on an uploaded model: the outer layer of the model's own air region.

The model must include the air (or other medium) around the structure. With `useRadialPML`, a
spherical layer of thickness `pmlThickness` (metres) inside the outer boundary, centred on the
model's bounding-box centre, becomes the PML: inner radius = (distance from the centre to the nearest
point of the outer boundary) − thickness. The outer boundary behind the PML stays PEC. The stretch is
applied to every element (it is the identity below the inner radius), so no re-meshing is needed.
"""

from typing import Any

import numpy as np

from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import TetModel
from fieldline_engine.physics.fullwave.pml import RadialPml


def outer_boundary_distance(model: TetModel, centre: np.ndarray) -> float:
    """Distance from `centre` to the outer boundary, sampled at vertices, edge midpoints and centroids."""
    tris = model.vertices[model.faces[model.face_outer_region < 0]]
    samples = [tris[:, i] for i in range(3)]
    samples += [(tris[:, i] + tris[:, (i + 1) % 3]) / 2 for i in range(3)]
    samples.append(tris.mean(axis=1))
    pts = np.concatenate(samples)
    return float(np.min(np.linalg.norm(pts - centre, axis=1)))


def radial_pml_for_model(model: TetModel, config: dict[str, Any], labels: np.ndarray) -> RadialPml:
    thickness = float(config.get("pmlThickness", 0.1) or 0.1)
    if not 0.01 <= thickness <= 0.5:
        raise InvalidInput("pmlThickness must be between 0.01 and 0.5 (metres).")
    sigma_max = float(config.get("pmlSigmaMax", 1e6) or 1e6)
    if sigma_max <= 0:
        raise InvalidInput("pmlSigmaMax must be above 0.")
    lo, hi = model.vertices.min(axis=0), model.vertices.max(axis=0)
    centre = (lo + hi) / 2
    r_out = outer_boundary_distance(model, centre)
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


def attach_radial_pml(model: TetModel, mesh, media, config: dict[str, Any], labels: np.ndarray):
    return mesh, media, radial_pml_for_model(model, config, labels)
