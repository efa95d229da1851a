import { Link } from 'react-router';
import { ExampleLink } from './ExampleLink.tsx';

/** Worked example: the capacitance of a parallel-plate capacitor (electrostatics). */
export function ElectrostaticsGuide() {
  return (
    <>
      <h2 id="electrostatics">Electrostatics and conduction</h2>
      <p>
        With the frequency at 0 the electromagnetic analysis solves for the electric potential: fixed
        potentials on faces (electrodes), the permittivity of each body, and, where a body conducts, steady
        current flow. Results: potential, E, D and current density fields, the stored energy, the charge on
        each electrode and the capacitance between two of them.
      </p>
      <p id="magnetic-closure">
        <strong>Magnetic field of a current</strong>: where current flows (steady conduction, quasi-statics)
        the magnetic field is solved with n×A = 0 on the model's outer boundary, as if the model sat in a
        closed conducting shell that carries the return current. With no air region around a conductor, its
        magnetic energy is that of the conductor in such a shell, not its inductance in free space: model air
        around the conductor to get that.
      </p>
      <h3 id="example-capacitor">Worked example: a parallel-plate capacitor</h3>
      <ol>
        <li>
          Download <ExampleLink file="capacitor-slab.step" /> (the FR-4 between two plates: 20 × 20 mm, 1 mm
          thick) and upload it in the <Link to="/environment">simulator</Link>. The STEP file says it is in
          millimetres; the bounding box reads 20 × 20 × 1 mm.
        </li>
        <li>Generate the volume mesh with the default settings.</li>
        <li>
          Physics <strong>Electromagnetic</strong>, analysis <strong>Electromagnetic</strong>, frequency 0.
          Give the body the material <strong>FR-4</strong> (ε<sub>r</sub> = 4.4).
        </li>
        <li>
          Under <strong>Boundary conditions</strong> add two face voltages: the top face (z = 1 mm) at 1 V and
          the bottom face (z = 0) at 0 V. Press a row's pick button and click the face on the model: one click
          picks the whole CAD face (its surface-triangle ids fill the list), marked in the role's colour.
        </li>
        <li>
          Run. The side faces need nothing: the field leaves them tangentially, as between ideal plates.
        </li>
      </ol>
      <p>
        Expected: the capacitance C = ε<sub>0</sub>ε<sub>r</sub>A/d = 8.854 pF/m × 4.4 × 400 mm² / 1 mm ={' '}
        <strong>15.58 pF</strong>, and a uniform field of 1 kV/m between the plates. Colour the model by the
        potential or |E| in the viewer, or cut a section through it.
      </p>
    </>
  );
}
