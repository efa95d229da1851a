import { describe, expect, it } from 'vitest';
import { portConductorWarning, portFaceShape } from '../../src/environment/families/em/port-face-shape.ts';
import coaxPorts from './fixtures/coax-ports.json';

/** Two coaxial lines meshed by gmsh (fixtures/make_coax_port_fixtures.py), each with its annular end face. */
type Fixture = { vertices: number[][]; faces: number[][]; tetrahedra: number[][]; port: number[] };
const fixtures = coaxPorts as Record<'coax' | 'fused', Fixture>;

describe('a wave port’s face, read before the run (issue 40)', () => {
  it('an annulus between a pin and a bore is coaxial, both loops conductor walls: no warning', () => {
    const { port, ...mesh } = fixtures.coax;
    const shape = portFaceShape(mesh, port);
    expect(shape?.coaxial).toBe(true);
    expect(shape?.loops.map((l) => +l.radius.toFixed(2))).toEqual([0.63, 2.05]);
    expect(shape?.loops.map((l) => l.conductor)).toEqual([true, true]);
    expect(portConductorWarning('Port 1', shape)).toBeNull();
  });

  it('the same annulus on one fused solid (the pin inside the dielectric) is named in a warning', () => {
    const { port, ...mesh } = fixtures.fused;
    const shape = portFaceShape(mesh, port);
    expect(shape?.coaxial).toBe(true);
    expect(shape?.loops.map((l) => l.conductor)).toEqual([false, true]);
    expect(portConductorWarning('Port 1', shape)).toMatch(
      /^Port 1: the model's body goes on behind the port's inner boundary, so it is not a conductor/,
    );
  });

  it('a rectangular or circular face has one loop (not coaxial); no faces, no shape', () => {
    const { ...mesh } = fixtures.coax;
    // the bore's side wall is a single cylindrical face: pick one triangle of the end face's outer ring only
    expect(portFaceShape(mesh, [])).toBeNull();
    const one = portFaceShape(mesh, [fixtures.coax.port[0]!]);
    expect(one?.coaxial).toBe(false);
    expect(one?.loops).toHaveLength(1);
  });
});
