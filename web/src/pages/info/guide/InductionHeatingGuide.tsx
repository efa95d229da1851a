import { ExampleLink } from './ExampleLink.tsx';

/** Worked example: a steel billet heated by the eddy currents of a coil (thermal with induction heating). */
export function InductionHeatingGuide() {
  return (
    <>
      <h3 id="induction-heating">Induction heating</h3>
      <p>
        Under <strong>Thermal</strong>, <strong>Heat sources</strong> → <strong>Induction heating</strong>{' '}
        solves the eddy-current field of the same model first and heats every conducting body by its
        time-averaged loss |J|²/2σ, in the same run. The switch opens the coil and solid-conductor rows of the
        magnetics form, the frequency and the air and flux boundaries; each body’s electrical conductivity and
        permeability sit in <strong>Materials</strong> beside its thermal properties, and the form lists the
        bodies that will carry eddy currents with their skin depth δ = 1/√(πfμσ) — a body left on the default
        steel conducts, so make the air around the part “Vacuum / air”. A σ or μr set for a body in the
        Electromagnetic form’s <strong>Magnetic materials</strong> is taken over (a value typed in Materials
        wins), and the form says so under the frequency. Before the run the viewer draws each coil’s current
        direction as arrows round it. The results hold the temperature, the eddy-current fields (the loss
        density among them), the losses per body and the coil’s resistance and reactance. Steady or transient
        alike.
      </p>
      <h4 id="example-billet">Worked example: a steel billet in a coil</h4>
      <ol>
        <li>
          Download <ExampleLink file="induction-billet.step" />: a 2 mm slice of a long billet (radius 10 mm)
          in a long coil, with the air gap (to 13 mm), the winding (13–15 mm) and air (to 18 mm) as four
          bodies: Body 1 is the billet, Body 3 the winding. Upload it and mesh it with a maximum element size
          of 2 mm.
        </li>
        <li>
          Physics <strong>Thermal</strong>, element order 2. Under <strong>Heat sources</strong> tick{' '}
          <strong>Induction heating</strong> and set the frequency to 5000 Hz. Under <strong>Coils</strong>{' '}
          add a coil on Body 3: 10 turns, 5 A (peak), ring around a hole, axis (0, 0, 1) — eight arrows go
          round the winding anticlockwise seen from +z.
        </li>
        <li>
          Under <strong>Air &amp; flux boundaries</strong> set the air padding to 0 (the model holds its air)
          and add a flux-normal boundary on every outer face — both end faces of all four bodies and the outer
          cylinder: the slice’s ends are symmetry planes of the long coil, so the field inside is that of an
          infinite solenoid, H₀ = NI/h = 25 kA/m.
        </li>
        <li>
          Under <strong>Materials</strong> keep the billet on steel but type σ = 5e6 S/m and μr = 1 (steel
          above its Curie point); make Bodies 2–4 “Vacuum / air” (a water-cooled coil’s own copper loss leaves
          in its water). The form then lists only the billet, with δ = 3.18 mm. A body left without a choice
          is not all steel: the form says what it assumed — a coil’s body copper, a body named air air, the
          workpiece steel.
        </li>
        <li>
          Add a <strong>Convection</strong> condition on the billet’s two end faces, h = 20 W/(m²·K), ambient
          293.15 K, and run.
        </li>
      </ol>
      <p>
        Expected: the billet in the uniform field of a long solenoid absorbs P′ = (π/σ)∫₀ᵃ|H₀kJ₁(kr)/J₀(ka)|²
        r dr per length (k = (1 − j)/δ), <strong>P = 2.070 W</strong> over the 2 mm slice; the engine gives
        2.065 W (−0.26 %) in about 10 s. All of it leaves through the convection (the heat flows show −2.065
        W), so the billet sits about P/(h·2πa²) = <strong>165 K</strong> above ambient: 458–459 K (185 °C),
        warmest at the rim where the skin carries the current, the centre 1 K cooler. The browser test
        e2e/tests/environment-induction.e2e.ts runs exactly these steps.
      </p>
    </>
  );
}
