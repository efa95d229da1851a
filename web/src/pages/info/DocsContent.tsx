import { Link } from 'react-router';
import { AdaptiveGuide } from './guide/AdaptiveGuide.tsx';
import { ApiGuide } from './guide/ApiGuide.tsx';
import { CoupledGuide } from './guide/CoupledGuide.tsx';
import { ElectrostaticsGuide } from './guide/ElectrostaticsGuide.tsx';
import { FullWaveGuide } from './guide/FullWaveGuide.tsx';
import { MagneticsGuide } from './guide/MagneticsGuide.tsx';
import { StructuralGuide } from './guide/StructuralGuide.tsx';
import { StudiesGuide } from './guide/StudiesGuide.tsx';
import { ThermalGuide } from './guide/ThermalGuide.tsx';
import { VibrationGuide } from './guide/VibrationGuide.tsx';

/** /docs: how to use Fieldline, in the order a first session goes. */
export function DocsContent() {
  return (
    <>
      <p className="lead">
        Fieldline solves electromagnetic, thermal, structural and vibration problems with the finite element
        method on server compute and shows the fields in your browser. This guide walks through a first
        simulation, gives every analysis a worked example with the answer to expect, and lists the conventions
        the app and its API use.
      </p>

      <h2 id="getting-started">Getting started</h2>
      <ol>
        <li>
          Open the <Link to="/environment">simulator</Link>. You can upload and mesh a model without an
          account; running an analysis needs one (<Link to="/userdatabase/Register">create an account</Link>).
          Whatever you did as a guest moves to your account when you sign in.
        </li>
        <li>Upload a design, check its units and size, and mesh it.</li>
        <li>Choose the analysis, assign materials to bodies and conditions to faces.</li>
        <li>Run it, follow the progress, then inspect and download the results.</li>
      </ol>

      <h2 id="validation">Validation</h2>
      <p>
        Every solver is checked against reference problems with known answers on each build. The{' '}
        <Link to="/docs/validation">validation report</Link> lists each case with its reference, Fieldline's
        value, the error and the tolerance, and the benchmarks against other solvers.
      </p>

      <h2 id="uploads">Uploading geometry</h2>
      <p>
        Accepted formats are STEP (<code>.step</code>, <code>.stp</code>), STL, OBJ and a ZIP archive of those
        files. STEP files carry their own length unit. STL and OBJ do not, so you pick millimetres,
        centimetres, metres or inches (millimetres by default) and Fieldline shows the resulting bounding box
        before meshing, so a model that is a thousand times too large is caught early. Uploads are encrypted
        at rest and deleted automatically unless you save them.
      </p>

      <h2 id="meshing">Meshing</h2>
      <p>
        The server turns the surface into a tetrahedral volume mesh. When a surface cannot be meshed (open
        edges, self-intersections, gaps between parts), the simulator marks the problem areas on the model and
        says what to fix, instead of failing silently.
      </p>

      <h2 id="analyses">Analyses</h2>
      <p>
        Pick the physics at the top of the configuration panel; each section below describes one and walks
        through a worked example with a model you can download and the answer to expect.
      </p>
      <ElectrostaticsGuide />
      <FullWaveGuide />
      <MagneticsGuide />
      <ThermalGuide />
      <StructuralGuide />
      <VibrationGuide />
      <CoupledGuide />
      <StudiesGuide />
      <AdaptiveGuide />
      <ApiGuide />

      <h2 id="conventions">Conventions</h2>
      <ul>
        <li>Face ids are 1-based; node ids are 0-based indices into the mesh vertices.</li>
        <li>Coordinates stay in the model's own unit; fields and derived quantities are in SI units.</li>
        <li>
          Phasors use the engineering convention e<sup>+jωt</sup>: the S21 phase of a matched line of length L
          is −βL.
        </li>
      </ul>

      <h2 id="validation">How results are checked</h2>
      <p>
        Every solver is tested against problems with closed-form answers (parallel-plate and coaxial
        capacitors, coax line constants, a dielectric sphere in a uniform field, waveguide propagation, cavity
        resonances, pulse delay on a line) and the errors are reported with each release.
      </p>

      <h2 id="accounts">Accounts and plans</h2>
      <p>
        New accounts start on the pay-as-you-go token plan; the Single plan costs $5 per month and can be
        cancelled anytime. Usage and billing are on your dashboard.
      </p>

      <h2 id="api">API</h2>
      <p>
        The browser app uses a JSON API whose OpenAPI description is served at <code>/api/docs</code>.
        Requests that change something must come from the app's own origin and carry JSON bodies.
      </p>
    </>
  );
}
