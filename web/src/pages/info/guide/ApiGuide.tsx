/** Scripting Fieldline (docs/api.md): API tokens, the Python client's quickstart and the command line. */
export function ApiGuide() {
  return (
    <>
      <h2 id="api">Scripting: API tokens, Python and the command line</h2>
      <p>
        Everything the simulator does is an HTTP call (documented at <a href="/api/docs">/api/docs</a>).
        Create a personal API token on the dashboard under <strong>API tokens</strong> (name, scope{' '}
        <strong>run</strong> or <strong>read</strong>, expiry 1–365 days or never); its <code>fl_…</code>{' '}
        secret is shown once. Send it as <code>Authorization: Bearer fl_…</code>, or let the Python client do
        it.
      </p>
      <h3 id="api-quickstart">Worked example: a capacitance from a script</h3>
      <pre>
        <code>{`pip install ./clients/python        # from the Fieldline repository
export FIELDLINE_URL=https://your-host FIELDLINE_TOKEN=fl_…

from fieldline import Client
fl = Client()
mesh = fl.mesh(fl.upload("slab.step"), max_size=4)
z = mesh.vertices[:, 2]
job = fl.run(mesh, {"analysisType": "em", "frequency": 0, "defaultPermittivity": 4.4 * 8.854e-12,
    "dirichletFaceConditions": [{"faces": mesh.faces_on_plane("z", z.min()), "voltage": 0},
                                {"faces": mesh.faces_on_plane("z", z.max()), "voltage": 1}]})
print(job.results().quantities["capacitance_F"])
job.save_vtu("slab.vtu")`}</code>
      </pre>
      <p>
        Expected: for a 30 × 20 × 1.6 mm FR-4 slab (ε<sub>r</sub> = 4.4) the capacitance is ε<sub>0</sub>ε
        <sub>r</sub>A/d = <strong>14.61 pF</strong>; the field between the plates is uniform, so Fieldline
        gives it to rounding. <code>job.results().fields</code> holds every field as a numpy array by its
        catalogue name (<code>potential</code>, <code>electric_field</code>, …).
      </p>
      <h3 id="api-cli">The command line</h3>
      <pre>
        <code>{`fieldline run bracket.step --physics structural --config setup.json --out results/
fieldline status <job-id>
fieldline download <job-id> --format touchstone`}</code>
      </pre>
      <p>
        <code>run</code> uploads, meshes, runs and writes <code>results.json</code>, <code>results.vtu</code>{' '}
        and any Touchstone file. Exit codes: 0 done, 1 the job failed, 2 bad input, 3 token refused, 4 a limit
        (402 balance, 413 size, 429 rate), 5 timed out, 6 server unreachable. A <strong>read</strong> token
        can look but not run; tokens never work for signing in, managing tokens or billing. Revoking a token
        on the dashboard stops it at once.
      </p>
      <h3 id="api-study">Worked example: a design study from a script</h3>
      <pre>
        <code>{`eps0 = 8.854e-12
config = {"analysisType": "em", "frequency": 0, "dirichletFaceConditions": [...]}  # as above
study = fl.study(mesh, config, parameters={"defaultPermittivity": [eps0, 2.2 * eps0, 4.4 * eps0]},
                 outputs=["capacitance_F"])
t = study.table(numpy=True)
print(t["capacitance_F"] / t["defaultPermittivity"])`}</code>
      </pre>
      <p>
        Expected: three points, each an ordinary job; C/ε is the same for all three (A/d = 0.375 m for the 30
        × 20 × 1.6 mm slab), because the capacitance is linear in the permittivity.{' '}
        <code>study.cancel()</code> stops it; <code>fieldline study … --sweep path=v1,v2 --output name</code>{' '}
        does the same from the shell and writes the table as CSV.
      </p>
      <h3 id="api-export">Worked example: the environment's set-up as a script</h3>
      <p>
        Configure a run in the simulator (say the L-bracket: bolt holes fixed, 500 N down on the upright),
        then press <strong>Export as script</strong> beside Run Analysis. The downloaded{' '}
        <code>bracket_fieldline.py</code> holds the mesh options and the whole configuration as submitted,
        faces by id with their body and CAD face named in comments:
      </p>
      <pre>
        <code>{`FIELDLINE_URL=https://your-host FIELDLINE_TOKEN=fl_… python bracket_fieldline.py bracket.step`}</code>
      </pre>
      <p>
        Expected: the same quantities as the browser's run (max von Mises, displacement, reactions summing to
        500 N), because the script runs on the environment's mesh while it is on the server. With{' '}
        <code>FIELDLINE_REMESH=1</code> it uploads and meshes the file again and the numbers agree to the mesh
        (a few tenths of a percent on a coarse mesh). <strong>Copy as curl</strong> gives the same submission
        as bash commands (curl and jq) with a <code>$FIELDLINE_TOKEN</code> placeholder.
      </p>
    </>
  );
}
