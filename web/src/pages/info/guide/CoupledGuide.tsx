/** Worked example: a bus bar heated by its own current, held by its bolts (thermal stress), and chained runs. */
export function CoupledGuide() {
  return (
    <>
      <h2 id="coupled">Coupled and chained runs</h2>
      <p>
        One physics often drives another: a bar carrying current heats up, expands and loads its clamps; a
        tensioned part vibrates higher; a transient starts from a steady state. Fieldline couples them inside
        one job — <strong>thermal stress</strong> (<code>analysisType: "thermal-structural"</code>: a steady
        thermal solve, Joule heating included, then elasticity under the thermal strain α(T − T<sub>ref</sub>
        )) and <strong>prestressed modes</strong> (<code>modal</code> with <code>prestress: true</code>) — and
        chains jobs: a run takes a field another completed run of yours produced on the same mesh (
        <code>fieldsFrom</code>), read by the server from its stored results. Each body's expansion
        coefficient comes from its library material (<code>thermalExpansion</code>, 1/K); the stress-free
        temperature is <code>referenceTemperature</code> (293.15 K by default). Thermal stress is the physics{' '}
        <strong>Thermal stress</strong> in the chooser: the thermal conditions and sources, the supports and
        loads, the stress-free temperature and one material table. The other forms chain runs: the structural
        form's <strong>Temperature</strong> group (<em>Temperature from</em>: none, a uniform temperature, or
        a completed thermal run of this model, listed by analysis, date and peak temperature), the thermal
        transient's <em>Initial temperature from</em> (a steady run, or a transient's frame), and the modal
        form's <strong>Prestress</strong> (by its own supports and loads, or from a completed structural run).
        Results open in the viewer like any other, with the temperature and the stresses on the deformed shape
        in the field list. Through the API: <code>POST /api/fea/submit</code> (
        <a href="/api/docs">/api/docs</a>).
      </p>
      <h3 id="example-bus-bar">Worked example: a copper bus bar heated by its current</h3>
      <ol>
        <li>
          Mesh a copper bar 100 × 10 × 5 mm (order 2). Its two 10 × 5 mm end faces are where the bolts clamp
          it and where the current enters and leaves.
        </li>
        <li>
          Physics <strong>Thermal stress</strong>; the body's material <strong>copper</strong> (σ = 5.8·10
          <sup>7</sup> S/m, k = 401 W/m·K, E = 117 GPa, ν = 0.34, α = 16.5·10<sup>−6</sup>/K, yield 70 MPa).
          Tick <strong>Joule heating</strong> and put 10 mV on one end face and 0 V on the other; add a
          convection condition, h = 10 W/m²·K to 293.15 K, on the four long faces; under supports hold both
          end faces (name them "clamp A" and "clamp B"). Through the API this is{' '}
          <code>analysisType: "thermal-structural"</code> with <code>jouleHeating</code>,{' '}
          <code>dirichletFaceConditions</code>, <code>convectionConditions</code> and{' '}
          <code>fixedSupports</code>.
        </li>
        <li>
          The job solves the conduction, the temperature, then the stresses, and returns both families'
          results.
        </li>
      </ol>
      <p>
        Expected: R = ρL/A = <strong>34.5 µΩ</strong>, Joule power V²/R = <strong>2.90 W</strong>; nearly all
        of it leaves through the 3000 mm² of convecting faces, so the bar sits about P/(hA) ={' '}
        <strong>96.7 K</strong> above ambient (389.8 K; copper conducts so well that it is almost uniform).
        Held at both ends it cannot grow: the axial stress mid-bar is about −Eα ΔT = <strong>−187 MPa</strong>{' '}
        (the run gives −193 MPa: the clamps also hold the ends' sideways expansion), the clamps push with
        about <strong>9.6 kN</strong> each, equal and opposite (<code>reactions</code>), and von Mises peaks
        at the clamped edges. Copper yields near 70 MPa: a bus bar clamped this rigidly would yield — which is
        why bus bars get expansion joints.
      </p>
      <h3 id="example-chained">Chaining: a run that starts from another run's fields</h3>
      <ul>
        <li>
          <strong>Structural from a thermal job</strong>: run the bus bar as <strong>Thermal</strong> (the
          same voltage and convection), then choose <strong>Structural</strong>, hold both ends, and in{' '}
          <strong>Temperature</strong> pick <em>A completed thermal run of this model</em> and that run.
          Through the API,{' '}
          <code>
            fieldsFrom: {'{'}jobId, fields: ["temperature"]{'}'}
          </code>{' '}
          loads a structural run by that job's temperature; with the same supports it gives the thermal-stress
          job's stresses exactly. From a transient thermal job add <code>frame</code> (an index or{' '}
          <code>"last"</code>).
        </li>
        <li>
          <strong>A transient from a steady state</strong>: a <code>thermal-time</code> run with{' '}
          <code>fields: ["temperature"]</code> starts at those temperatures (its first frame, t = 0, is them
          exactly), e.g. to see how fast the bar cools when the current is switched off.
        </li>
        <li>
          <strong>Modes under a stress</strong>: a <code>modal</code> run with <code>fields: ["stress"]</code>{' '}
          takes a structural job's stress as its prestress; or set <code>prestress: true</code> with the loads
          in the same run. A strip pulled by its Euler load P<sub>cr</sub> vibrates √2 higher in its first
          mode, pushed by P<sub>cr</sub>/2 √½ lower; the results say whether the prestress raised or lowered
          the frequencies.
        </li>
      </ul>
      <p>
        The source must be your own completed job on the same mesh (the server compares a hash of the vertices
        and tetrahedra); <code>GET /api/fea/chain-sources</code> lists the candidates with their peak
        temperature. A source is kept past its retention time while a run that uses it waits or runs.
      </p>
    </>
  );
}
