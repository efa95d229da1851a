import { ExampleLink } from './ExampleLink.tsx';

/** Worked example: a pin fin (steady heat conduction with convection). */
export function ThermalGuide() {
  return (
    <>
      <h2 id="thermal">Thermal</h2>
      <p>
        Steady or transient heat conduction. Faces take a fixed temperature, a heat flux, convection to an
        ambient temperature or radiation; bodies take a heat source, or the Joule heat of a current solved in
        the same job (<strong>Joule heating</strong>: give the electrodes their voltages). Results: the
        temperature, the heat flux and temperature gradient, the heat flowing through each condition and the
        minimum and maximum temperature. A transient run records the temperature over time at probes and
        animates it.
      </p>
      <h3 id="example-fin">Worked example: an aluminium pin fin</h3>
      <ol>
        <li>
          Download <ExampleLink file="pin-fin.step" /> (5 mm diameter, 50 mm long), upload and mesh it.
        </li>
        <li>
          Physics <strong>Thermal</strong>; give the body the material <strong>Aluminium</strong> (k = 167
          W/(m·K)).
        </li>
        <li>
          Under <strong>Boundary conditions</strong> hold the base face (z = 0) at a fixed temperature of
          373.15 K and put convection with h = 25 W/(m²·K) to an ambient of 293.15 K on the side and the tip.
        </li>
        <li>Run, and colour the model by temperature.</li>
      </ol>
      <p>
        Expected: with m = √(hP/kA) = 10.9 m<sup>−1</sup> the fin equation gives the tip at 362.5 K if the tip
        were insulated (T − T<sub>∞</sub> = 80 K / cosh(mL)); the tip's own convection takes it to about{' '}
        <strong>362.0 K</strong>, and Fieldline's default mesh gives 361.8 K. The heat leaving through the
        base is reported under heat flows.
      </p>
    </>
  );
}
