import { ExampleLink } from './ExampleLink.tsx';

/** Worked example: a cantilever's tip deflection and stress (linear static structural). */
export function StructuralGuide() {
  return (
    <>
      <h2 id="structural">Structural (linear static)</h2>
      <p>
        Linear elasticity with supports (fixed, or fixed in chosen directions) and loads (forces on faces,
        pressure, gravity) on picked faces. Results: the displacement, shown on the deformed shape with the
        undeformed outline, the stress tensor, von Mises and principal stresses, the maximum displacement and
        stress with their locations, and the reaction force at each support.
      </p>
      <h3 id="example-cantilever">Worked example: a steel cantilever</h3>
      <ol>
        <li>
          Download <ExampleLink file="cantilever.step" /> (100 mm long along x, 10 × 10 mm section), upload
          and mesh it.
        </li>
        <li>
          Physics <strong>Structural</strong>; material <strong>Steel</strong> (E = 200 GPa, ν = 0.3).
        </li>
        <li>
          Under <strong>Supports</strong> fix the face at x = 0. Under <strong>Loads</strong> put a force of
          −100 N in z on the face at x = 100 mm.
        </li>
        <li>Run; the viewer shows the deformed shape coloured by von Mises stress.</li>
      </ol>
      <p>
        Expected: the beam-theory tip deflection FL³/3EI = <strong>0.20 mm</strong> (element order 2 gives it
        within about 1 %), the reaction at the support 100 N upwards, and a bending stress of M·c/I = 60 MPa
        at the root. The largest von Mises value sits on the clamped edge, where a perfectly rigid support
        makes the stress singular: it grows as the mesh is refined there, so read stresses a little away from
        such edges.
      </p>
    </>
  );
}
