/** /blog: product news. */
export function BlogContent() {
  return (
    <>
      <article className="post">
        <h2>Fieldline enters open beta</h2>
        <p className="muted">Release notes</p>
        <p>
          Fieldline is open for everyone to try. Upload a STEP, STL or OBJ model, mesh it on our servers and
          look at it in the browser without creating an account. Sign up to run analyses: electrostatics and
          steady conduction first, then quasi-statics and full-wave frequency-domain runs with wave ports and
          S-parameters.
        </p>
        <p>
          The beta is free to explore; compute is paid with tokens on the default pay-as-you-go plan or with
          the $5/month Single plan. Tell us what breaks: every report from the beta goes straight to the
          engineers who build the solvers.
        </p>
      </article>

      <article className="post">
        <h2>How we check our solvers</h2>
        <p className="muted">Engineering</p>
        <p>
          A field plot that looks plausible can still be wrong by a factor of two. That is why each physics
          module in Fieldline ships with validation cases whose answers are known in closed form: the
          capacitance of parallel plates and coaxial cylinders, the characteristic impedance of a coax line,
          the field inside a dielectric sphere in a uniform field, the propagation constant of a rectangular
          waveguide and the resonances of a cavity.
        </p>
        <p>
          Those cases run with every change to the code, and each prints its error against the exact value. A
          change that moves an error beyond its tolerance does not ship. The same cases are the ones we
          publish in the validation report, so you can see how close the numbers are before you trust them
          with your own design.
        </p>
      </article>

      <article className="post">
        <h2>Your models are yours</h2>
        <p className="muted">Security</p>
        <p>
          CAD files are often a company's most sensitive data. Uploads are encrypted at rest, visible only to
          the account that made them, and deleted automatically unless you choose to save them. Passwords are
          stored as Argon2id hashes, sessions live on the server and can be ended at once, and the API refuses
          requests that come from other websites.
        </p>
      </article>
    </>
  );
}
