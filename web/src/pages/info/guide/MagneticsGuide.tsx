import { ExampleLink } from './ExampleLink.tsx';
import { InductionHeatingGuide } from './InductionHeatingGuide.tsx';

/** Worked examples: a gapped E-core inductor's inductance and flux density (magnetostatics); a billet heated by
 * induction (thermal with induction heating). */
export function MagneticsGuide() {
  return (
    <>
      <h2 id="magnetics">Magnetics (magnetostatic and eddy currents)</h2>
      <p>
        Under <strong>Electromagnetic</strong>, the analysis choice <strong>Magnetostatic</strong> solves the
        field of DC coils, permanent magnets and (saturating) iron; <strong>Eddy currents</strong> solves the
        time-harmonic field at a frequency with the currents it induces in conductors. A coil is a winding
        that fills a body: give its turns and current, and how its current goes round — a ring around a hole
        (the engine finds the axis, or give one), a shell wrapping another body (a toroid), or open ends
        picked on the model as in and out faces. Each body is air, linear (μr), soft iron on a B–H curve (the
        library’s M-19 steel or a pasted <code>[[H, B], …]</code> table, plotted and checked as you type) or a
        magnet (its remanence Br as a vector). Upload the device without air: air is meshed around it.
        Results: |B| in tesla on the model (with arrows and field lines), the inductance matrix with the flux
        linkage and coupling, the stored energy, forces and torques on chosen bodies, and with eddy currents
        the losses per body and each coil’s resistance and reactance. Details: docs/magnetics.md.
      </p>
      <h3 id="example-inductor">Worked example: a gapped E-core inductor</h3>
      <ol>
        <li>
          Download <ExampleLink file="e-core-inductor.step" />: a 60 × 20 × 50 mm E-core whose 20 × 20 mm
          centre leg has a 0.3 mm air gap, and the coil around that leg, as two bodies. Upload and mesh it.
        </li>
        <li>
          Physics <strong>Electromagnetic</strong>, analysis <strong>Magnetostatic</strong>. Under{' '}
          <strong>Coils</strong> add a coil on the coil body: 50 turns, 2 A, current path “Ring around a
          hole”.
        </li>
        <li>
          Under <strong>Magnetic materials</strong> make the core <strong>Linear</strong> with μr = 5000 (or
          soft iron on the M-19 curve, which at this flux density is well below saturation).
        </li>
        <li>Run; the viewer shows |B| in tesla, the results the inductance.</li>
      </ol>
      <p>
        Expected: the magnetic circuit gives L = N²/(g/(μ0A·F) + ℓ/(μ0μrA)) with A = 400 mm², g = 0.3 mm, a
        mean core path ℓ ≈ 130 mm and Partridge’s fringing factor F = 1 + (g/√A) ln(2G/g) = 1.08 for the 30 mm
        window height G: <strong>L ≈ 4.1 mH</strong> (3.85 mH without the fringing, which a gap always adds).
        The engine gives 4.18 mH on a 7 k-element mesh at element order 2 (+1 % against the estimate with
        fringing). |B| is about 0.4 T in the centre leg and the gap, about the same in the outer legs (half
        the flux through half the section).
      </p>
      <InductionHeatingGuide />
    </>
  );
}
