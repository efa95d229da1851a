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
        magnet (its remanence Br as a vector). A <strong>solid conductor</strong> is a massive body fed a
        total current — skin and proximity effect inside with eddy currents, spread by DC conduction in
        magnetostatics — between picked (or found) ends, or round a closed ring with no ends at all (a shorted
        turn, a single-turn loop: set an air padding when the ring is all you upload). Upload the device
        without air: air is meshed around it. Results: |B| in tesla on the model (with arrows and field
        lines), the inductance matrix with the flux linkage and coupling, the stored energy, forces and
        torques on chosen bodies, and with eddy currents the losses per body and each coil’s resistance and
        reactance. Details: docs/magnetics.md.
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
      <h3 id="magnetics-symmetry">Half and quarter models on symmetry planes</h3>
      <p>
        A symmetric device can be cut and only a part modelled, holding its own air (air padding 0). Under{' '}
        <strong>Air &amp; flux boundaries</strong> mark each cut: <strong>flux-normal</strong> where B crosses
        the plane and the current runs along it (a solenoid cut across its axis),{' '}
        <strong>flux-tangent</strong> where B runs along the plane and the current crosses it (a solenoid cut
        along its axis; the model’s outer faces are flux-tangent already). A winding the flux-tangent cut
        opens becomes an open coil: pick its cut faces as the in and out terminals, and give it the turns of
        the section it carries through them.
      </p>
      <p>
        Worked example: a quarter of a thick solenoid (bore 10 mm, outside radius 15 mm, 10 mm long, 200
        turns, 1 A), the part with y ≥ 0 and z ≥ 0 in a quarter air sphere of radius 160 mm. Mark the z = 0
        faces flux-normal; the winding’s two faces on y = 0 are its terminals — in at x &gt; 0, out at x &lt;
        0, which turns the current right-handed about +z — with 100 turns (half the winding’s section is in
        the quarter). The run’s inductance ×4 is the whole coil’s: <strong>0.912 mH</strong> against 0.914 mH
        from Maxwell’s formula for coaxial loops integrated over the section (−0.16 %), and Bz at the centre
        9.41 mT (closed form 9.42 mT). The energy and forces are the quarter’s, so ×4 as well.
      </p>
      <p>
        Before Run, the estimate beside the button counts the air the engine will add around a bare device
        (“with ≈ … tetrahedra of air added around the device”): the charge and the memory check include it.
      </p>
      <InductionHeatingGuide />
    </>
  );
}
