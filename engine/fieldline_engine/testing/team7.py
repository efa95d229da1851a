"""TEAM Workshop Problem 7 (asymmetrical conductor with a hole) as a meshed model, and its measurements.

Geometry (compumag problem7.pdf, Fig. 1; mm): an aluminium plate 294 × 294 × 19 (σ = 3.526e7 S/m) with a
108 × 108 through-hole whose corner sits at (18, 18); above it a racetrack coil of 2742 ampere-turns,
outer envelope x 94…294, y 0…200 (corner radius 50), inner 119…269 × 25…175 (radius 25), z 49…149.
Air fills a box `padding_mm` beyond both. Bz is measured 15 mm above the plate, along A1–B1 (y = 72,
z = 34, x = 0…288). `python -m fieldline_engine.testing.team7 [plate_mm] [out.msh]` writes the gmsh mesh
(MSH 2.2 in metres; physical volumes air = 1, plate = 2, coil = 3; outer boundary = 4) that the GetDP
bench reads.
"""

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).with_name("team7_measurements.json")
PLATE_SIGMA = 3.526e7  # S/m
AMPERE_TURNS = 2742.0  # peak, maximal at ωt = 0, anticlockwise seen from +z
REGION_NAMES = ["air", "plate", "coil"]  # region ids 0, 1, 2 (gmsh physical volumes 1, 2, 3)
PLATE_SKIN_TAG = 5  # in the .msh only
OUTER_BOUNDARY_TAG = 4


@dataclass(frozen=True)
class Team7Mesh:
    mesh_data: dict[str, Any]  # the upload format, units mm, tetrahedron_regions as REGION_NAMES
    msh_path: Path | None  # the same tetrahedra as a gmsh .msh (physical groups above), when asked for


def measurements(frequency_hz: int) -> tuple[np.ndarray, np.ndarray]:
    """(points in m along A1–B1, measured Bz phasor in T) at 50 or 200 Hz. The measurement at ωt = 0 is
    Re(B̂) and at ωt = 90° is Re(B̂ e^{jπ/2}) = −Im(B̂) for B(t) = Re(B̂ e^{jωt})."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    series = data["measured"][str(frequency_hz)]
    x = np.asarray(data["x_mm"], dtype=float) * 1e-3
    points = np.stack(
        [x, np.full_like(x, data["line"]["y_mm"] * 1e-3), np.full_like(x, data["line"]["z_mm"] * 1e-3)],
        axis=1,
    )
    bz = (np.asarray(series["0deg"]) - 1j * np.asarray(series["90deg"])) * 1e-4
    return points, bz


def build_team7_mesh(
    plate_mm: float = 12.0,
    coil_mm: float = 20.0,
    air_mm: float = 80.0,
    line_mm: float | None = None,
    padding_mm: float = 200.0,
    msh_path: Path | None = None,
    threads: int = 1,
) -> Team7Mesh:
    """Meshes the problem with gmsh (OpenCascade kernel). `line_mm` refines the air around A1–B1 (default:
    the plate size), so the measured field is sampled on elements no larger than the plate's."""
    import gmsh

    line_mm = plate_mm if line_mm is None else line_mm
    gmsh.initialize(readConfigFiles=False, interruptible=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.option.setNumber("General.NumThreads", max(1, threads))
        gmsh.model.add("team7")
        occ = gmsh.model.occ
        plate = occ.addBox(0, 0, 0, 294, 294, 19)
        hole = occ.addBox(18, 18, 0, 108, 108, 19)
        occ.cut([(3, plate)], [(3, hole)])
        outer = occ.addRectangle(94, 0, 49, 200, 200, roundedRadius=50)
        inner = occ.addRectangle(119, 25, 49, 150, 150, roundedRadius=25)
        ring, _ = occ.cut([(2, outer)], [(2, inner)])
        occ.extrude(ring, 0, 0, 100)
        p = padding_mm
        air = occ.addBox(-p, -p, -p, 294 + 2 * p, 294 + 2 * p, 149 + 2 * p)
        occ.fragment([(3, air)], [(3, t) for d, t in occ.getEntities(3) if t != air])
        occ.synchronize()

        # The air box is far the largest body; of the other two the coil lies above the plate.
        volumes: dict[str, list[int]] = {"air": [], "plate": [], "coil": []}
        for _, tag in gmsh.model.getEntities(3):
            if occ.getMass(3, tag) > 1e7:
                volumes["air"].append(tag)
            else:
                volumes["coil" if occ.getCenterOfMass(3, tag)[2] > 30 else "plate"].append(tag)
        for index, name in enumerate(REGION_NAMES, start=1):
            gmsh.model.addPhysicalGroup(3, volumes[name], index, name=name)
        boundary = gmsh.model.getBoundary([(3, t) for t in volumes["air"]], combined=False, oriented=False)
        lo, hi = -p, (294 + p, 294 + p, 149 + p)
        outer_faces = []
        for _, tag in boundary:
            x0, y0, z0, x1, y1, z1 = gmsh.model.getBoundingBox(2, abs(tag))
            if min(x0, y0, z0) <= lo + 1e-6 or x1 >= hi[0] - 1e-6 or y1 >= hi[1] - 1e-6 or z1 >= hi[2] - 1e-6:
                outer_faces.append(abs(tag))
        gmsh.model.addPhysicalGroup(2, sorted(set(outer_faces)), OUTER_BOUNDARY_TAG, name="outer")

        # Sizes: the plate and the measurement line fine, the coil medium, the far air coarse.
        field = gmsh.model.mesh.field
        plate_field = field.add("Constant")
        field.setNumbers(plate_field, "VolumesList", volumes["plate"])
        field.setNumber(plate_field, "VIn", plate_mm)
        field.setNumber(plate_field, "VOut", air_mm)
        coil_field = field.add("Constant")
        field.setNumbers(coil_field, "VolumesList", volumes["coil"])
        field.setNumber(coil_field, "VIn", coil_mm)
        field.setNumber(coil_field, "VOut", air_mm)
        line_field = field.add("Box")
        for key, value in {
            "XMin": -line_mm, "XMax": 294 + line_mm, "YMin": 72 - 2 * line_mm, "YMax": 72 + 2 * line_mm,
            "ZMin": 19, "ZMax": 49, "VIn": line_mm, "VOut": air_mm, "Thickness": 60,
        }.items():  # fmt: skip
            field.setNumber(line_field, key, value)
        near = field.add("Box")
        for key, value in {
            "XMin": -20, "XMax": 314, "YMin": -20, "YMax": 314, "ZMin": -20, "ZMax": 169,
            "VIn": max(plate_mm, coil_mm), "VOut": air_mm, "Thickness": 150,
        }.items():  # fmt: skip
            field.setNumber(near, key, value)
        smallest = field.add("Min")
        field.setNumbers(smallest, "FieldsList", [plate_field, coil_field, line_field, near])
        field.setAsBackgroundMesh(smallest)
        gmsh.option.setNumber("Mesh.MeshSizeExtendFromBoundary", 0)
        gmsh.option.setNumber("Mesh.MeshSizeFromPoints", 0)
        gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 0)
        gmsh.option.setNumber("Mesh.Algorithm3D", 1)
        gmsh.model.mesh.generate(3)
        gmsh.model.mesh.optimize("Netgen")

        node_tags, coords, _ = gmsh.model.mesh.getNodes()
        index = np.zeros(int(node_tags.max()) + 1, dtype=np.int64)
        index[node_tags.astype(np.int64)] = np.arange(len(node_tags))
        vertices = coords.reshape(-1, 3)
        tets, regions = [], []
        for region, name in enumerate(REGION_NAMES):
            for tag in volumes[name]:
                types, _, conn = gmsh.model.mesh.getElements(3, tag)
                for etype, nodes in zip(types, conn, strict=True):
                    if etype == 4:  # 4-node tetrahedron
                        block = index[nodes.astype(np.int64)].reshape(-1, 4)
                        tets.append(block)
                        regions.append(np.full(len(block), region))
        faces = []
        for _, tag in gmsh.model.getEntities(2):
            types, _, conn = gmsh.model.mesh.getElements(2, tag)
            for etype, nodes in zip(types, conn, strict=True):
                if etype == 2:
                    faces.append(index[nodes.astype(np.int64)].reshape(-1, 3))
        if msh_path is not None:
            # The plate's skin for GetDP (bench/magnetics/team7.pro): its gauge tree in the air starts there.
            skin = gmsh.model.getBoundary([(3, t) for t in volumes["plate"]], combined=True, oriented=False)
            gmsh.model.addPhysicalGroup(
                2, sorted({abs(t) for _, t in skin}), PLATE_SKIN_TAG, name="plate_skin"
            )
            gmsh.option.setNumber("Mesh.MshFileVersion", 2.2)  # GetDP without gmsh linked reads 2.2
            gmsh.option.setNumber("Mesh.SaveAll", 0)
            gmsh.option.setNumber("Mesh.ScalingFactor", 1e-3)  # the .msh in metres
            gmsh.write(str(msh_path))
    finally:
        gmsh.finalize()
    used = np.unique(np.concatenate(tets))
    remap = np.full(len(vertices), -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    mesh_data = {
        "vertices": vertices[used].tolist(),
        "tetrahedra": remap[np.concatenate(tets)].tolist(),
        "tetrahedron_regions": np.concatenate(regions).tolist(),
        "region_names": list(REGION_NAMES),
        "faces": remap[np.concatenate(faces)].tolist(),
        "units": "mm",
    }
    return Team7Mesh(mesh_data=mesh_data, msh_path=msh_path)


if __name__ == "__main__":
    size = float(sys.argv[1]) if len(sys.argv) > 1 else 12.0
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("team7.msh")
    built = build_team7_mesh(plate_mm=size, msh_path=out)
    print(json.dumps({"msh": str(out), "tetrahedra": len(built.mesh_data["tetrahedra"])}))
