"""Writes the guide's example models (web/public/examples/*.step) with gmsh's OpenCascade kernel.

Run with the engine's environment: .venv/bin/python scripts/make-example-models.py. The files are
committed; this script says how they were made and remakes them if a dimension changes. Lengths in mm
(the STEP files declare millimetres)."""

from pathlib import Path

import gmsh

OUT = Path(__file__).resolve().parent.parent / "web" / "public" / "examples"


def write(name: str, build) -> None:
    gmsh.initialize(interruptible=False)
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.option.setString("Geometry.OCCTargetUnit", "MM")
    gmsh.model.add(name)
    build(gmsh.model.occ)
    gmsh.model.occ.synchronize()
    path = OUT / f"{name}.step"
    gmsh.write(str(path))
    gmsh.finalize()
    print(f"wrote {path.relative_to(OUT.parent.parent.parent)}")


def e_core_inductor(occ, gap: float = 0.3) -> None:
    """An E-core inductor as two bodies: the core (60 × 20 × 50 mm, a 20 × 20 mm centre leg with an air gap
    of `gap` mm across it at z = 25, 10 mm outer legs and yokes) and the coil around the centre leg (a ring
    38 × 38 mm outside, 1 mm clear of the core, z = 11–39)."""
    core = occ.addBox(-30, 0, 0, 60, 20, 50)
    cuts = [
        occ.addBox(-20, -1, 10, 10, 22, 30),
        occ.addBox(10, -1, 10, 10, 22, 30),
        occ.addBox(-11, -1, 25 - gap / 2, 22, 22, gap),
    ]
    occ.cut([(3, core)], [(3, c) for c in cuts])
    ring = occ.addBox(-19, -9, 11, 38, 38, 28)
    hole = occ.addBox(-11, -1, 10, 22, 22, 30)
    occ.cut([(3, ring)], [(3, hole)])


def induction_billet(occ) -> None:
    """A 2 mm slice of a long billet in a long coil, four coaxial bodies along z: the billet (radius 10 mm),
    the air gap round it (to 13), the winding (13–15) and air outside it (to 18). With its outer faces
    flux-normal it is a length of an infinite solenoid (engine/fieldline_engine/testing/induction_billet.py)."""
    cylinders = [occ.addCylinder(0, 0, 0, 0, 0, 2, r) for r in (10, 13, 15, 18)]
    occ.fragment([(3, cylinders[-1])], [(3, c) for c in cylinders[:-1]])


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    # Parallel-plate capacitor: the FR-4 dielectric between the plates, 20 × 20 mm, 1 mm thick.
    write("capacitor-slab", lambda occ: occ.addBox(0, 0, 0, 20, 20, 1))
    # WR-90 waveguide section: 22.86 × 10.16 mm inside, 50 mm long along z.
    write("wr90-section", lambda occ: occ.addBox(0, 0, 0, 22.86, 10.16, 50))
    # Aluminium pin fin: 5 mm diameter, 50 mm long along z, its base at z = 0.
    write("pin-fin", lambda occ: occ.addCylinder(0, 0, 0, 0, 0, 50, 2.5))
    # Steel cantilever: 100 mm long along x, 10 × 10 mm square section.
    write("cantilever", lambda occ: occ.addBox(0, 0, 0, 100, 10, 10))
    # E-core inductor: the core and its coil as two bodies (docs/magnetics.md, the guide's inductor).
    write("e-core-inductor", e_core_inductor)
    # Induction heating: a slice of a billet in a coil with its air (docs/magnetics.md §8, the guide's billet).
    write("induction-billet", induction_billet)


if __name__ == "__main__":
    main()
