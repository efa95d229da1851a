"""A solid ring of round section (a torus): the closed solid conductor's reference case.

- DC inductance of a thin ring carrying a uniform current (Maxwell; Rosa & Grover, Bull. Bur. Stand. 8,
  1912, formula for a circular ring of circular section): L = μ0 R (ln(8R/a) − 7/4), R the ring's mean
  radius, a its section's radius; the next terms are O((a/R)² ln(8R/a)).
- DC resistance of a torus of one conductivity: the potential is the angle about the axis, so J ∝ 1/r
  and R = 2π / (σ ∫ dA/r) = 1 / (σ (R − √(R² − a²))) exactly (2πR/σπa² for a thin ring).
- AC: a ring with R ≫ a crowds its current to its skin as a straight round wire does, so R_ac/R_dc tends
  to the wire's Bessel value Re[(ka/2) J₀(ka)/J₁(ka)] (round_wire.py), k = (1 − j)/δ.

The meshed model is the torus (body 'ring') alone, or inside an air sphere (body 'air'); `ring_shape`
gives the netgen.occ solids (body0 the ring, body1 the air) for a mesh curved onto the CAD surfaces.
"""

import math
from typing import Any

import numpy as np

MU0 = 4e-7 * math.pi


def thin_ring_inductance(mean_radius: float, section_radius: float) -> float:
    return MU0 * mean_radius * (math.log(8 * mean_radius / section_radius) - 1.75)


def torus_dc_resistance(mean_radius: float, section_radius: float, sigma: float) -> float:
    return 1.0 / (sigma * (mean_radius - math.sqrt(mean_radius**2 - section_radius**2)))


def ring_shape(mean_radius: float, section_radius: float, ring_h: float, air_radius: float) -> Any:
    """The torus (material body0, faces meshed at `ring_h`) glued into an air sphere (body1)."""
    from netgen import occ

    section = occ.WorkPlane(occ.Axes((mean_radius, 0, 0), n=occ.Y, h=occ.X)).Circle(section_radius).Face()
    ring = section.Revolve(occ.Axis((0, 0, 0), occ.Z), 360)
    ring.mat("body0")
    ring.faces.maxh = ring_h
    air = occ.Sphere(occ.Pnt(0, 0, 0), air_radius) - ring
    air.mat("body1")
    return occ.Glue([ring, air])


def ring_mesh_data(
    mean_radius_mm: float,
    section_radius_mm: float,
    ring_h_mm: float,
    air_radius_mm: float | None = None,
    curvature: float = 2.0,
) -> dict[str, Any]:
    """mesh_data (mm) of a torus about the z axis centred at the origin, with an air sphere round it when
    `air_radius_mm` is given (body 0 the ring, body 1 the air)."""
    import ngsolve as ng
    from netgen import occ

    section = (
        occ.WorkPlane(occ.Axes((mean_radius_mm, 0, 0), n=occ.Y, h=occ.X)).Circle(section_radius_mm).Face()
    )
    ring = section.Revolve(occ.Axis((0, 0, 0), occ.Z), 360)
    ring.solids.name = "ring"
    ring.faces.maxh = ring_h_mm
    shapes = [ring]
    if air_radius_mm is not None:
        air = occ.Sphere(occ.Pnt(0, 0, 0), air_radius_mm) - ring
        air.solids.name = "air"
        shapes.append(air)
    geometry = occ.OCCGeometry(occ.Glue(shapes) if len(shapes) > 1 else ring)
    mesh = ng.Mesh(
        geometry.GenerateMesh(
            maxh=air_radius_mm / 4 if air_radius_mm else ring_h_mm, grading=0.4, curvaturesafety=curvature
        )
    )
    vertices = np.array([p.point for p in mesh.vertices])
    tets, regions = [], []
    for el in mesh.Elements(ng.VOL):
        tets.append([v.nr for v in el.vertices])
        regions.append(0 if el.mat == "ring" else 1)
    names = ["ring", "air"] if air_radius_mm is not None else ["ring"]
    return {
        "vertices": vertices.tolist(),
        "tetrahedra": tets,
        "tetrahedron_regions": regions,
        "region_names": names,
        "units": "mm",
    }
