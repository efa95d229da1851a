import { Link } from 'react-router';

/** /terms-of-service and /terms. */
export function TermsContent() {
  return (
    <>
      <p className="lead">
        These terms apply when you use Fieldline, a browser-based finite element simulation service. By
        creating an account you accept them.
      </p>

      <h2 id="beta">An open beta</h2>
      <p>
        Fieldline is in open beta. Features may change, and the service may be interrupted for maintenance. We
        will tell you in advance about changes that affect saved models or paid plans.
      </p>

      <h2 id="account">Your account</h2>
      <ul>
        <li>Give a real name and an email address you can receive mail at.</li>
        <li>Keep your password to yourself; you are responsible for what is done with your account.</li>
        <li>Tell us at once if you think someone else has used it.</li>
      </ul>

      <h2 id="content">Your content</h2>
      <p>
        The designs you upload and the results they produce remain yours. You give us permission to store and
        process them only to run the simulations you ask for. Uploads you do not save are deleted
        automatically (see the <Link to="/privacy-policy">Privacy Policy</Link>). Upload only files you have
        the right to use.
      </p>

      <h2 id="use">Acceptable use</h2>
      <p>
        Do not try to break into other accounts or our systems, overload the service on purpose, upload
        malicious files, or use the compute for anything other than simulation (such as mining
        cryptocurrency). We may suspend accounts that do.
      </p>

      <h2 id="payment">Plans and payment</h2>
      <ul>
        <li>New accounts start on the pay-as-you-go token plan: tokens pay for compute time.</li>
        <li>
          The Single plan costs $5 per month and can be cancelled anytime; it stays active until the end of
          the paid period.
        </li>
        <li>Prices are shown before you pay. Payments are processed by Stripe.</li>
      </ul>

      <h2 id="results">Engineering results</h2>
      <p>
        Simulation is an aid to engineering judgement, not a replacement for it. Our solvers are checked
        against reference problems, but results depend on your model, mesh, materials and boundary conditions.
        Verify important results before you rely on them for safety, certification or production decisions.
      </p>

      <h2 id="liability">Warranty and liability</h2>
      <p>
        The service is provided as it is, without warranties beyond those the law requires. To the extent the
        law allows, our liability for any claim is limited to the amount you paid us in the twelve months
        before it arose.
      </p>

      <h2 id="ending">Ending the agreement</h2>
      <p>
        You can close your account at any time. We may close accounts that break these terms, after telling
        you why where we can.
      </p>
    </>
  );
}
