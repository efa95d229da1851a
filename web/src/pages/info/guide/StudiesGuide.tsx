import { Link } from 'react-router';
import { ExampleLink } from './ExampleLink.tsx';

/** Worked example: a design study — the capacitor's capacitance over five permittivities (docs/studies.md). */
export function StudiesGuide() {
  return (
    <>
      <h2 id="studies">Design studies: sweeps and mesh convergence</h2>
      <p>
        A design study runs one analysis at many points and collects chosen results into a table: how the
        stress changes with the load, S21 with a dielectric's permittivity, the hot spot with the convection
        coefficient. Any number of the configuration can be swept — as a list of values, or from … to in N
        linear or logarithmic steps — and two or more swept settings combine as every combination (grid) or
        side by side (zip), up to 200 points. Each point is an ordinary job: it runs on any free worker, is
        charged for its own run, and appears in Recent Activity. The whole study is checked against your
        balance before it starts; its points then wait for your plan's free simulation slots. Sweeping the
        mesh size (meshMaxSize) meshes the uploaded model again for each point, with the mesh settings you
        chose (they stay under the volume mesh, each with its own <strong>sweep</strong>). A vector such as a
        coil's axis or an anisotropic permittivity has a <strong>sweep x</strong>, <strong>y</strong> and{' '}
        <strong>z</strong>, one per component.
      </p>
      <h3 id="example-study">Worked example: capacitance against permittivity</h3>
      <ol>
        <li>
          Set up the capacitor of the <a href="#example-capacitor">electrostatics example</a>: upload{' '}
          <ExampleLink file="capacitor-slab.step" /> in the <Link to="/environment">simulator</Link>, mesh it,
          choose FR-4 for the body and put 1 V on the top face and 0 V on the bottom one.
        </li>
        <li>
          In the <strong>Design study</strong> card under Run Analysis, choose{' '}
          <code>bodyMaterials[0].relativePermittivity = 4.4</code> and press <strong>Sweep</strong> (or press
          the small <strong>sweep</strong> beside any number of the form above: the card adds the setting that
          number sets). Switch the row to <strong>values</strong> and enter{' '}
          <code>2.2, 3, 4.4, 6.15, 10.2</code>.
        </li>
        <li>
          Tick the output <strong>capacitance_F</strong>. The card shows 5 points and the study's estimate;
          press <strong>Run Study</strong>.
        </li>
        <li>
          The progress bar and the table fill in as the points finish. Sort the table by a column, download it
          as CSV, plot capacitance_F against the permittivity, or press <strong>Open</strong> on a row to see
          that point's fields in the viewer. The study stays on the dashboard's Recent Activity and reopens at{' '}
          <code>/environment?study=…</code>.
        </li>
        <li>
          To compare two points, tick them in the table's <strong>compare</strong> column (say ε<sub>r</sub> =
          10.2 first, then 2.2) and press <strong>Compare</strong>: two viewer panes show the same field with
          one legend range, and turning or zooming one turns the other. <strong>Difference A − B</strong>{' '}
          shows the field of the first minus the second on one pane, vertex by vertex — here the potential and
          the electric field are the same at both points (1 V across one gap filled by one material), so the
          difference is near zero: only the capacitance changes with ε<sub>r</sub>. Points meshed differently
          (a swept mesh size) offer no difference, and the card says why; a study that re-meshes shows each
          point's mesh (the first digits of its content hash) in the table's <strong>mesh</strong> column.
          Results with frames (modes, time steps, phases) animate the difference frame by frame when both
          points have the same frames, with the usual play and frame controls; otherwise the layer says why
          the difference stands still.
        </li>
      </ol>
      <p>
        Expected: C = ε<sub>0</sub>ε<sub>r</sub>A/d = 3.542 pF × ε<sub>r</sub>, so{' '}
        <strong>7.79, 10.63, 15.58, 21.78 and 36.13 pF</strong> — a straight line through the origin.
      </p>
      <p>
        <strong>Mesh convergence</strong> (the card's <strong>Mesh convergence</strong> switch, or{' '}
        <code>POST /api/fea/studies</code> with <code>convergence</code>): the uploaded model is meshed at a
        start size and then finer by a ratio until the chosen output changes by less than a tolerance; the
        card shows each mesh's value and tetrahedron count, and the converged value with its estimated error
        (Richardson extrapolation over the last three meshes, Roache's grid convergence index). Face
        selections must be whole CAD faces, so every new mesh finds them again.
      </p>
      <h3 id="example-convergence">Worked example: has the coax capacitance converged?</h3>
      <ol>
        <li>
          Upload a STEP section of a coaxial line (inner radius 0.455 mm, outer 1.49 mm, 5 mm long). Under{' '}
          <strong>Mesh size and mesher</strong> untick <strong>Refine on curvature</strong> (the sizes are
          then what the study asks for), mesh it, and put terminal 1 (0 V) on the outer cylinder and terminal
          2 (1 V) on the inner one.
        </li>
        <li>
          In the Design study card choose <strong>Mesh convergence</strong>, output{' '}
          <strong>capacitance_F</strong>, 1 %, first size 0.6 mm, ratio 1.5, at most 5 meshes; Run Study.
        </li>
        <li>
          Expected: about 2.48, 2.43, 2.39 and 2.37 × 10<sup>−13</sup> F on 0.6, 0.4, 0.27 and 0.18 mm meshes;
          converged at the fourth (0.8 % change) with an estimated error near 5 × 10<sup>−15</sup> F, which
          holds the closed form 2πε<sub>0</sub>L/ln(b/a) = 2.345 × 10<sup>−13</sup> F.
        </li>
      </ol>
    </>
  );
}
