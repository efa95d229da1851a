import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './server.ts';

/** A coaxial line section (annular dielectric between r = a and r = b, length L) as STEP, in mm. */
export function writeCoaxStep(dir: string, dims = { a: 0.5, b: 2.3, length: 5 }): string {
  const path = join(dir, 'coax.step');
  const script = `
import gmsh, sys
gmsh.initialize(); gmsh.option.setNumber('General.Terminal', 0)
gmsh.option.setString('Geometry.OCCTargetUnit', 'MM')
gmsh.model.add('coax')
outer = gmsh.model.occ.addCylinder(0, 0, 0, 0, 0, ${dims.length}, ${dims.b})
inner = gmsh.model.occ.addCylinder(0, 0, 0, 0, 0, ${dims.length}, ${dims.a})
gmsh.model.occ.cut([(3, outer)], [(3, inner)])
gmsh.model.occ.synchronize()
gmsh.write(sys.argv[1])
gmsh.finalize()
`;
  execFileSync(join(REPO_ROOT, '.venv/bin/python'), ['-c', script, path], { stdio: 'pipe' });
  return path;
}

/**
 * The same coaxial section modelled as vendors' connector files often are: one fused solid, the pin inside
 * the dielectric (it protrudes 1 mm at z = 0, so the dielectric's end face is still an annulus).
 */
export function writeFusedCoaxStep(dir: string, dims = { a: 0.5, b: 2.3, length: 5 }): string {
  const path = join(dir, 'fused-coax.step');
  const script = `
import gmsh, sys
gmsh.initialize(); gmsh.option.setNumber('General.Terminal', 0)
gmsh.option.setString('Geometry.OCCTargetUnit', 'MM')
gmsh.model.add('fused')
body = gmsh.model.occ.addCylinder(0, 0, 0, 0, 0, ${dims.length}, ${dims.b})
pin = gmsh.model.occ.addCylinder(0, 0, -1, 0, 0, ${dims.length + 2}, ${dims.a})
gmsh.model.occ.fuse([(3, body)], [(3, pin)])
gmsh.model.occ.synchronize()
gmsh.write(sys.argv[1])
gmsh.finalize()
`;
  execFileSync(join(REPO_ROOT, '.venv/bin/python'), ['-c', script, path], { stdio: 'pipe' });
  return path;
}

/** An STL whose surface intersects itself: two overlapping cubes written as one body. */
export function writeSelfIntersectingStl(dir: string): string {
  const cube = (o: number) => {
    const v = [
      [0, 0, 0],
      [1, 0, 0],
      [1, 1, 0],
      [0, 1, 0],
      [0, 0, 1],
      [1, 0, 1],
      [1, 1, 1],
      [0, 1, 1],
    ].map((p) => p.map((c) => c * 10 + o));
    const quads = [
      [0, 3, 2, 1],
      [4, 5, 6, 7],
      [0, 1, 5, 4],
      [2, 3, 7, 6],
      [1, 2, 6, 5],
      [0, 4, 7, 3],
    ];
    return quads.flatMap(([a, b, c, d]) => [
      [v[a!]!, v[b!]!, v[c!]!],
      [v[a!]!, v[c!]!, v[d!]!],
    ]);
  };
  const tris = [...cube(0), ...cube(5)];
  const body = tris
    .map(
      (t) =>
        `facet normal 0 0 0\n outer loop\n${t.map((p) => `  vertex ${p.join(' ')}`).join('\n')}\n endloop\nendfacet`,
    )
    .join('\n');
  const path = join(dir, 'broken.stl');
  writeFileSync(path, `solid broken\n${body}\nendsolid broken\n`);
  return path;
}

/** An air-filled rectangular waveguide section (a × b cross-section, length L along +z) as STEP, in mm. */
export function writeWaveguideStep(dir: string, dims = { a: 22.86, b: 10.16, length: 25 }): string {
  const path = join(dir, 'waveguide.step');
  const script = `
import gmsh, sys
gmsh.initialize(); gmsh.option.setNumber('General.Terminal', 0)
gmsh.option.setString('Geometry.OCCTargetUnit', 'MM')
gmsh.model.add('waveguide')
gmsh.model.occ.addBox(0, 0, 0, ${dims.a}, ${dims.b}, ${dims.length})
gmsh.model.occ.synchronize()
gmsh.write(sys.argv[1])
gmsh.finalize()
`;
  execFileSync(join(REPO_ROOT, '.venv/bin/python'), ['-c', script, path], { stdio: 'pipe' });
  return path;
}

/** WR-90 (22.86 × 10.16 mm) 40 mm long with a metal post r = 2 mm across its height at the centre, removed
 * from the air: the inductive post of engine/tests/adaptive/test_adaptive_wr90_post.py, as STEP in mm. */
export function writeWaveguidePostStep(dir: string): string {
  const path = join(dir, 'wr90-post.step');
  const script = `
import gmsh, sys
gmsh.initialize(); gmsh.option.setNumber('General.Terminal', 0)
gmsh.option.setString('Geometry.OCCTargetUnit', 'MM')
gmsh.model.add('post')
occ = gmsh.model.occ
guide = occ.addBox(0, 0, 0, 22.86, 10.16, 40)
post = occ.addCylinder(11.43, -1, 20, 0, 12.16, 0, 2)
occ.cut([(3, guide)], [(3, post)])
occ.synchronize()
gmsh.write(sys.argv[1])
gmsh.finalize()
`;
  execFileSync(join(REPO_ROOT, '.venv/bin/python'), ['-c', script, path], { stdio: 'pipe' });
  return path;
}

/**
 * An L-bracket as STEP, in mm: a 60 × 30 × 6 base plate with two Ø8 bolt holes at (15, 15) and (45, 15),
 * and a 6 mm upright at x = 54–60 rising to z = 36.
 */
export function writeBracketStep(dir: string, filletRadius = 0): string {
  const path = join(dir, filletRadius > 0 ? 'bracket-fillet.step' : 'bracket.step');
  // filletRadius > 0 rounds the inside corner where the upright meets the base (the edge x = 54, z = 6)
  const script = `
import gmsh, sys
gmsh.initialize(); gmsh.option.setNumber('General.Terminal', 0)
gmsh.option.setString('Geometry.OCCTargetUnit', 'MM')
gmsh.model.add('bracket')
occ = gmsh.model.occ
base = occ.addBox(0, 0, 0, 60, 30, 6)
upright = occ.addBox(54, 0, 0, 6, 30, 36)
holes = [occ.addCylinder(x, 15, -1, 0, 0, 8, 4) for x in (15, 45)]
body, _ = occ.fuse([(3, base)], [(3, upright)])
body, _ = occ.cut(body, [(3, h) for h in holes])
occ.synchronize()
radius = float(sys.argv[2])
if radius > 0:
    corner = gmsh.model.getEntitiesInBoundingBox(53.9, -1, 5.9, 54.1, 31, 6.1, 1)
    occ.fillet([t for _, t in body], [t for _, t in corner], [radius])
    occ.synchronize()
gmsh.write(sys.argv[1])
gmsh.finalize()
`;
  execFileSync(join(REPO_ROOT, '.venv/bin/python'), ['-c', script, path, String(filletRadius)], {
    stdio: 'pipe',
  });
  return path;
}

/** A copper bus bar 100 × 10 × 3 mm along x, as STEP. */
export function writeBusBarStep(dir: string): string {
  const path = join(dir, 'busbar.step');
  const script = `
import gmsh, sys
gmsh.initialize(); gmsh.option.setNumber('General.Terminal', 0)
gmsh.option.setString('Geometry.OCCTargetUnit', 'MM')
gmsh.model.add('busbar')
gmsh.model.occ.addBox(0, 0, 0, 100, 10, 3)
gmsh.model.occ.synchronize()
gmsh.write(sys.argv[1])
gmsh.finalize()
`;
  execFileSync(join(REPO_ROOT, '.venv/bin/python'), ['-c', script, path], { stdio: 'pipe' });
  return path;
}

/** The E-core inductor's dimensions (mm): see writeECoreInductorStep. */
export const E_CORE = { legWidth: 20, depth: 20, windowHeight: 30, gap: 0.3, meanPath: 130 } as const;

/**
 * A gapped E-core inductor as STEP, in mm, two bodies: the core (60 × 20 × 50 mm; a 20 × 20 mm centre leg
 * cut across by an air gap of `gap` at z = 25, 10 mm outer legs and yokes, 10 × 30 mm windows) and the coil
 * around the centre leg (a ring 38 × 38 mm outside, 1 mm clear of the core, z = 11–39). The same model as
 * the guide's e-core-inductor.step (scripts/make-example-models.py).
 */
export function writeECoreInductorStep(dir: string, gap: number = E_CORE.gap): string {
  const path = join(dir, 'e-core-inductor.step');
  const script = `
import gmsh, sys
gmsh.initialize(); gmsh.option.setNumber('General.Terminal', 0)
gmsh.option.setString('Geometry.OCCTargetUnit', 'MM')
gmsh.model.add('ecore')
occ = gmsh.model.occ
g = ${gap}
core = occ.addBox(-30, 0, 0, 60, 20, 50)
cuts = [occ.addBox(-20, -1, 10, 10, 22, 30), occ.addBox(10, -1, 10, 10, 22, 30), occ.addBox(-11, -1, 25 - g / 2, 22, 22, g)]
occ.cut([(3, core)], [(3, c) for c in cuts])
ring = occ.addBox(-19, -9, 11, 38, 38, 28)
hole = occ.addBox(-11, -1, 10, 22, 22, 30)
occ.cut([(3, ring)], [(3, hole)])
occ.synchronize()
gmsh.write(sys.argv[1])
gmsh.finalize()
`;
  execFileSync(join(REPO_ROOT, '.venv/bin/python'), ['-c', script, path], { stdio: 'pipe' });
  return path;
}

/** The induction billet's dimensions (mm): see writeInductionBilletStep. */
export const BILLET = { radius: 10, gapOuter: 13, coilOuter: 15, airOuter: 18, height: 2 } as const;

/**
 * A slice of a long steel billet in a long coil as STEP, in mm, four coaxial bodies along z, `height` tall:
 * the billet (radius 10), the air gap round it (to 13), the winding (13–15) and air outside it (to 18). With
 * every outer face flux-normal the slice is a length of an infinite solenoid (the closed form of
 * engine/fieldline_engine/testing/induction_billet.py). The same model as the guide's induction-billet.step
 * (scripts/make-example-models.py).
 */
export function writeInductionBilletStep(dir: string): string {
  const path = join(dir, 'induction-billet.step');
  const b = BILLET;
  const script = `
import gmsh, sys
gmsh.initialize(); gmsh.option.setNumber('General.Terminal', 0)
gmsh.option.setString('Geometry.OCCTargetUnit', 'MM')
gmsh.model.add('billet')
occ = gmsh.model.occ
cylinders = [occ.addCylinder(0, 0, 0, 0, 0, ${b.height}, r) for r in (${b.radius}, ${b.gapOuter}, ${b.coilOuter}, ${b.airOuter})]
occ.fragment([(3, cylinders[-1])], [(3, c) for c in cylinders[:-1]])
occ.synchronize()
gmsh.write(sys.argv[1])
gmsh.finalize()
`;
  execFileSync(join(REPO_ROOT, '.venv/bin/python'), ['-c', script, path], { stdio: 'pipe' });
  return path;
}

/** The ring coil's dimensions (mm): see writeRingCoilStep. */
export const RING_COIL = { inner: 10, outer: 15, height: 10 } as const;

/**
 * A thick ring coil as STEP, in mm, one body and no air round it (a winding as a user draws it): inner
 * radius 10, outer 15, 10 tall along z from z = 0. A magnetic run adds the air (`airPadding`).
 */
export function writeRingCoilStep(dir: string): string {
  const path = join(dir, 'ring-coil.step');
  const c = RING_COIL;
  const script = `
import gmsh, sys
gmsh.initialize(); gmsh.option.setNumber('General.Terminal', 0)
gmsh.option.setString('Geometry.OCCTargetUnit', 'MM')
gmsh.model.add('ring')
occ = gmsh.model.occ
outer = occ.addCylinder(0, 0, 0, 0, 0, ${c.height}, ${c.outer})
inner = occ.addCylinder(0, 0, 0, 0, 0, ${c.height}, ${c.inner})
occ.cut([(3, outer)], [(3, inner)])
occ.synchronize()
gmsh.write(sys.argv[1])
gmsh.finalize()
`;
  execFileSync(join(REPO_ROOT, '.venv/bin/python'), ['-c', script, path], { stdio: 'pipe' });
  return path;
}
