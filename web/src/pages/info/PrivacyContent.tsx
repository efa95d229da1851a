import { SUPPORT_EMAIL } from '../../site.ts';

/** /privacy-policy and /privacy. */
export function PrivacyContent() {
  return (
    <>
      <p className="lead">
        This policy says what Fieldline stores about you, why, for how long, and what you can ask us to do
        with it. The short version: we keep what the service needs to run, we encrypt your uploads and delete
        them automatically unless you save them, and we sell nothing to anyone.
      </p>

      <h2 id="account">Your account</h2>
      <p>
        When you register we store your name, email address, username and plan. Your password is never stored:
        we keep only an Argon2id hash of it, from which the password cannot be read back.
      </p>

      <h2 id="uploads">Your designs and results</h2>
      <ul>
        <li>
          <strong>Uploads are encrypted.</strong> CAD files, meshes and results are encrypted at rest
          (AES-256-GCM) and travel over HTTPS.
        </li>
        <li>
          <strong>Uploads are deleted automatically unless you save them.</strong> Files you do not save are
          removed, with their results, after a short retention period; files you save stay until you delete
          them or close your account.
        </li>
        <li>
          <strong>They are yours alone.</strong> Nobody else can open your models or results. Our staff look
          at a file only when you ask us to, for example in a support request.
        </li>
        <li>We do not use your designs to train models or for any purpose other than running your jobs.</li>
      </ul>

      <h2 id="cookies">Cookies</h2>
      <p>
        We set one cookie, <code>fl_session</code>, which keeps you signed in (and, before you sign in, keeps
        track of the models you uploaded as a guest). It is HttpOnly, so scripts on the page cannot read it,
        and it is sent only to Fieldline. There are no advertising or tracking cookies and no third-party
        analytics.
      </p>

      <h2 id="usage">Usage and payment records</h2>
      <p>
        We record the compute time and tokens each job used, to bill it and show it on your dashboard.
        Payments are handled by our payment processor, Stripe; we never see or store your card number.
      </p>

      <h2 id="security-logs">Security records</h2>
      <p>
        We log sign-ins, failed sign-ins and the IP addresses of requests to protect accounts (for example to
        slow down password guessing). These records are kept only as long as they are needed for that.
      </p>

      <h2 id="rights">Your rights</h2>
      <p>
        You can ask for a copy of your data, for corrections, or for your account and everything in it to be
        deleted: write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> from your account's email
        address. Deleting your account ends all its sessions and removes its files.
      </p>

      <h2 id="changes">Changes</h2>
      <p>
        If this policy changes in a way that matters, we will say so on this page and by email before the
        change takes effect.
      </p>
    </>
  );
}
