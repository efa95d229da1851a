import { ExampleLink } from './ExampleLink.tsx';

/** Worked example: S-parameters of a WR-90 waveguide section (full-wave frequency domain). */
export function FullWaveGuide() {
  return (
    <>
      <h2 id="full-wave">Full-wave frequency domain (S-parameters)</h2>
      <p>
        Above 0 Hz, with wave ports, a PML or impedance boundaries, Fieldline solves the time-harmonic Maxwell
        equations. Wave ports launch and absorb a waveguide mode (TE10, TE20, TM01 or TEM); the S-parameters
        are swept over a band, plotted, tabulated and exported as Touchstone (<code>.s2p</code>) and CSV.
        Walls without a condition are perfect electric conductors. Phases follow the engineering convention e
        <sup>+jωt</sup>, so a matched line of length L has ∠S21 = −βL.
      </p>
      <h3 id="example-waveguide">Worked example: a WR-90 waveguide section</h3>
      <ol>
        <li>
          Download <ExampleLink file="wr90-section.step" /> (22.86 × 10.16 mm inside, 50 mm long, air) and
          upload and mesh it.
        </li>
        <li>
          Physics <strong>Electromagnetic</strong>, frequency 10 GHz. Under <strong>Wave ports</strong> turn
          on wave ports and add the two end faces (z = 0 and z = 50 mm) with mode TE10.
        </li>
        <li>
          Under <strong>S-parameters</strong> extract a sweep from 8 to 12 GHz. The adaptive sweep solves a
          few frequencies and fits the rest within its tolerance.
        </li>
        <li>Run, then open the S-parameter plot and table, and download the Touchstone file.</li>
      </ol>
      <p>
        Expected at 10 GHz: |S21| = 1 (0 dB) and |S11| far below −30 dB; β = √(k<sub>0</sub>² − (π/a)²) =
        158.2 rad/m, so ∠S21 = −βL = −453.3°, shown wrapped as <strong>−93.3°</strong>. Below the TE10 cut-off
        (6.56 GHz) the port mode does not propagate.
      </p>
      <h3 id="time-domain">Time domain and eigenmodes</h3>
      <p>
        Turn on <strong>Time-domain analysis</strong> to excite the same ports or a current source with a
        Gaussian or modulated pulse: the run records port voltages and currents, probe signals and the field
        energy over time, animates the field and gives the pulse's frequency response. The{' '}
        <strong>Eigenmodes</strong> analysis finds the resonances of a closed cavity (and their Q when the
        walls or materials are lossy).
      </p>
    </>
  );
}
