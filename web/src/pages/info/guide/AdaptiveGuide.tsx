/** Adaptive mesh refinement: what it does, its stopping rules, and a worked example (docs/adaptive.md). */
export function AdaptiveGuide() {
  return (
    <>
      <h2 id="adaptive">Adaptive refinement</h2>
      <p>
        You do not have to know where a mesh needs to be fine. Tick <strong>Adaptive refinement</strong> (the
        same group under every family) and the engine solves, estimates the error of every element, refines
        the elements that hold 30 % of the estimated error (Dörfler marking; conforming bisection), and solves
        again — pass after pass, until your tolerance is met. New vertices on the surface go onto the true
        surface: the CAD faces of a STEP model meshed here, or the curved surface reconstructed from an
        uploaded mesh. Conditions you put on a face hold on all its pieces.
      </p>
      <h3 id="adaptive-rules">Stopping rules</h3>
      <ul>
        <li>
          <strong>Estimated error</strong> (default for static EM, conduction, thermal and structural): the
          flux-recovery (Zienkiewicz–Zhu) estimate of the energy-norm error, relative to the solution's energy
          norm. Tolerance 0.01 means about 1 %.
        </li>
        <li>
          <strong>A quantity</strong> you choose (capacitance, max von Mises stress, max temperature …): the
          passes stop when it changes by less than the tolerance (relative) between two passes. For a maximum
          the elements around where it lies are refined every pass too, so its change means something.
        </li>
        <li>
          <strong>Full-wave S-parameters</strong>: as in HFSS, the passes run at one frequency — the group's{' '}
          <em>Adaptation frequency</em> if you set one (<code>adaptiveRefinement.frequency</code>), else the
          sweep's highest, where the mesh is coarsest in wavelengths (without a sweep, the run's frequency) —
          and stop when the largest |ΔS| over the ports between two passes is below the tolerance (default
          0.02); then the requested sweep is solved on the final mesh, and the passes table says which
          frequency the passes solved. A filter adapted at its passband's centre (say 10 GHz for a 9–11 GHz
          sweep) gets the mesh where its fields matter most.
        </li>
        <li>
          <strong>Natural frequencies and cavity modes</strong> (Vibration modal, EM eigenmodes): every
          requested mode's error is estimated (the strain of a mode shape, the curl–curl residual of a cavity
          mode), each mode weighing alike, and the passes stop when the requested frequencies change by less
          than the tolerance between two passes (the largest relative change over the modes).
        </li>
        <li>
          <strong>Magnetostatics and thermal stress</strong> stop on the estimated error too: B recovered body
          by body and weighted by 1/μ; for thermal stress the temperature's and the strain's estimates
          together, so the mesh serves both steps.
        </li>
        <li>
          <strong>Harmonic response</strong> (Vibration harmonic): like full-wave, the passes run at one
          frequency — the group's <em>Adaptation frequency</em> if you set one (
          <code>adaptiveRefinement.frequency</code>
          ), else the field frequency, else the band's highest — and estimate the error of the complex
          displacement there (its strain recovered, real and imaginary parts); they stop on the estimated
          error or on the change of the max displacement amplitude (or a probe's) at that frequency; then the
          sweep is solved on the final mesh. Keep the adaptation frequency off a resonance: there the
          amplitude follows each pass's small shift of the mode.
        </li>
        <li>
          <strong>Eddy currents</strong>: the complex B recovered body by body (real and imaginary parts),
          which draws the refinement into each conductor's skin; stop on the estimated error, the total loss,
          each conductor's resistance or reactance, the inductance or the energy.
        </li>
        <li>
          <strong>Transient heat conduction</strong>: every pass runs the whole transient again. The error of
          the history is each element's largest estimate over the saved frames, so the mesh follows a heat
          front everywhere it went; stop on the change of the max temperature at the end, the peak temperature
          over the run or the heat taken in.
        </li>
        <li>
          <strong>Time-domain EM</strong> (Electromagnetic with <em>Time-domain analysis</em> ticked): every
          pass runs the whole pulse again. E and H are recovered at twelve instants spread over the run, each
          instant's error taken relative to the energy then in the fields, and each element keeps its largest:
          the mesh follows a pulse everywhere it travelled and a ringing mode wherever its field is. Stop on
          the estimated error, on the S-parameters over the pulse's band (the largest |ΔS| at any of its
          frequencies, default 0.02), or on the change of the ringing frequency at the first probe, the peak
          voltage at a port or voltage source, the peak stored energy or the peak |E| at the probes.
        </li>
        <li>
          <strong>Refined per pass</strong> (default 0.3): each pass refines the fewest elements holding this
          share of the estimated error. A larger share means fewer, bigger passes: on a small model, where
          every pass costs about the same, that can save time (the re-entrant corner of bench/adaptive reaches
          1 % of its energy in three passes at 0.6 instead of four at 0.3); a smaller share puts the unknowns
          more precisely where the error is.
        </li>
        <li>
          <strong>Limits</strong>: at most <em>Max passes</em> passes (default 8) and a model of at most{' '}
          <em>Size limit</em> unknowns (default 200 000). The results say which limit stopped the passes and
          what was reached. The run estimate before Run already allows for the model growing to the size
          limit.
        </li>
        <li>
          A value at a singularity — the stress at a re-entrant corner or at the edge of a clamped face —
          grows without bound as the elements there shrink. When the chosen quantity keeps moving the same way
          pass after pass, the passes stop and the results say it does not converge: ask for a value away from
          the corner, or for an energy.
        </li>
      </ul>
      <h3 id="example-adaptive">Worked example: a heat-conducting L-shaped plate</h3>
      <ol>
        <li>
          Upload an L-shaped plate (2 × 2 × 0.5 with one quarter missing) and mesh it coarsely, a couple of
          elements across each leg.
        </li>
        <li>
          Physics <strong>Thermal</strong>: the two faces meeting at the inner corner at 300 K, the two far
          faces at 400 K.
        </li>
        <li>
          Open <strong>Adaptive refinement</strong>, tick it, leave <em>Stop when</em> at the estimated error
          and set the tolerance to 0.03. The run estimate now says how far the model may grow.
        </li>
        <li>Run.</li>
      </ol>
      <p>
        Expected: about nine passes. The table under <strong>Adaptive refinement</strong> in the results shows
        the estimated error falling from about 0.25 to below 0.03, and the plot shows it against the unknowns:
        it falls as N<sup>−1/3</sup>, the best first-order elements can do, where refining everywhere would
        only reach N<sup>−2/9</sup> because of the corner. Colour the model by{' '}
        <strong>error_indicator</strong> to see where the error was left, and look at the mesh: the elements
        along the inner corner are hundreds of times smaller than those at the far faces.
      </p>
      <h3 id="example-adaptive-plate">Worked example: the stress concentration at a hole</h3>
      <ol>
        <li>
          Upload a STEP of an eighth of a plate 250 × 100 × 4 mm with a 20 mm hole at its centre (cut on its
          three symmetry planes) and mesh it coarsely: 16 mm elements, 12 per circle.
        </li>
        <li>
          Physics <strong>Structural</strong>, order 2: rollers on the three symmetry faces (x, y and z held
          in turn), a force of 10 MPa × the end face's area pulling the far end.
        </li>
        <li>
          <strong>Adaptive refinement</strong>: <em>Stop when</em> Max von Mises stress, tolerance 0.005.
        </li>
        <li>Run.</li>
      </ol>
      <p>
        Expected: about five passes, the max von Mises stress rising from 27 MPa on the start mesh to
        31.4–31.5 MPa — the stress concentration 3.14 of Howland's solution for a hole of a fifth of the width
        — with the elements crowding the hole's edge. Refining everywhere reaches the same 1 % only at about
        19 × the unknowns.
      </p>
      <h3 id="example-adaptive-skin">Worked example: a wire's AC resistance at four skin depths</h3>
      <ol>
        <li>
          Upload a copper wire of 1 mm radius, 0.5 mm long, inside a coaxial air sleeve of 2 mm radius (two
          bodies), meshed coarsely: 0.5 mm elements in the wire.
        </li>
        <li>
          Physics <strong>Electromagnetic</strong>, analysis <strong>Eddy currents (time-harmonic)</strong>,
          69.9 kHz (the wire's radius is then four skin depths), order 2, curved geometry on; the wire copper
          (5.8·10⁷ S/m) and a solid conductor fed 2 A.
        </li>
        <li>
          <strong>Adaptive refinement</strong>: <em>Stop when</em> Resistance, tolerance 0.005.
        </li>
        <li>Run.</li>
      </ol>
      <p>
        Expected: three passes, R<sub>ac</sub>/R<sub>dc</sub> falling 2.324 → 2.299 → 2.292 against the Bessel
        solution's 2.274 (+2.2 % on the start mesh, +0.8 % on the final one). Colour by{' '}
        <strong>error_indicator</strong> to see where the error was left.
      </p>
      <h3 id="example-adaptive-transient">Worked example: a bar heated at one end</h3>
      <ol>
        <li>Upload a steel bar 200 × 10 × 10 mm meshed with four elements along it.</li>
        <li>
          Physics <strong>Thermal</strong>, transient: 300 K at the start, the end face at x = 0 held at 400
          K, 60 s in 240 steps (Crank–Nicolson); k = 50 W/m·K, ρ = 7850 kg/m³, c = 500 J/kg·K.
        </li>
        <li>
          <strong>Adaptive refinement</strong>: <em>Stop when</em> Heat taken in over the run, tolerance
          0.003.
        </li>
        <li>Run.</li>
      </ol>
      <p>
        Expected: six passes, the heat taken in falling from 1311 J to 1227 J against 2kΔTA√(t/πα) = 1224 J
        for a semi-infinite solid (+7 % on the start mesh, +0.2 % on the final one); the refinement sits where
        the heat front went: more than four times as many elements in the first quarter of the bar as in the
        last.
      </p>
      <h3 id="example-adaptive-ringdown">Worked example: a cavity's ringing frequency</h3>
      <ol>
        <li>
          Upload a box 22.86 × 10.16 × 50 mm (a WR-90 cavity) meshed very coarsely: two elements across its
          width, one across its height, four along it (48 tetrahedra). Its faces, with no condition, are
          perfect conductors.
        </li>
        <li>
          Physics <strong>Electromagnetic</strong>, order 2, <strong>Transient</strong>: time-domain analysis,
          time step 10 ps, end time 12 ns, Newmark; pulse <em>modulated Gaussian</em>, width 0.3 ns, carrier
          7.2 GHz; one volume current J = (0, 1, 0) A/m² in the box from (9.144, 0, 20) to (13.716, 10.16, 30)
          mm; a probe at (10.287, 5.08, 22.5) mm.
        </li>
        <li>
          <strong>Adaptive refinement</strong>: <em>Stop when</em> Ringing frequency at the first probe,
          tolerance 0.001.
        </li>
        <li>Run.</li>
      </ol>
      <p>
        Expected: three passes (687 → 7 338 unknowns), the ringing frequency 7.2437 → 7.2141 → 7.2113 GHz
        against TE101's c/2·√(1/a² + 1/d²) = 7.2100 GHz (+0.47 % on the start mesh, +0.02 % on the final one),
        the estimated error falling 0.13 → 0.05 → 0.03. The time-domain panel of the final pass lists the
        resonance; its signals and fields are those of the final mesh.
      </p>
    </>
  );
}
