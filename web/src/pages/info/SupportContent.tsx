import { Link } from 'react-router';
import { SUPPORT_EMAIL } from '../../site.ts';

/** /support: where to get help, frequent questions, and the community. */
export function SupportContent() {
  return (
    <>
      <p className="lead">
        Stuck on a model, a mesh that will not build or a result that looks wrong? Here is how to get help.
      </p>

      <h2 id="contact">Contact us</h2>
      <p>
        Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> from the email address of your
        account. Include the job id shown in the simulator and, if you can, the model file. Email support is
        part of every plan; we answer on working days.
      </p>

      <h2 id="faq">Frequent questions</h2>
      <dl className="faq">
        <dt>Do I need an account to try Fieldline?</dt>
        <dd>
          No. The <Link to="/environment">viewer</Link> works without one: upload and mesh a model as a guest.
          Running analyses needs an account, and what you did as a guest moves to it when you sign in.
        </dd>
        <dt>Which files can I upload?</dt>
        <dd>STEP (.step, .stp), STL and OBJ files, or a ZIP archive of them.</dd>
        <dt>My STL model comes out far too large or too small.</dt>
        <dd>
          STL and OBJ files carry no unit. Pick the unit the file was drawn in (millimetres by default) before
          meshing; the bounding box shown after upload tells you whether it is right.
        </dd>
        <dt>How are my files protected?</dt>
        <dd>
          Uploads are encrypted at rest and deleted automatically unless you save them. Nobody else can see
          your models or results. See the <Link to="/privacy-policy">Privacy Policy</Link>.
        </dd>
        <dt>How does billing work?</dt>
        <dd>
          Accounts start on pay-as-you-go tokens. The Single plan is $5 per month and can be cancelled
          anytime; it stays active until the end of the period you paid for.
        </dd>
        <dt>I forgot my password.</dt>
        <dd>
          Use <Link to="/userdatabase/ForgotPassword">Forgot Password</Link> on the login page. While
          automated reset emails are being finished, write to us from your account's email address and we will
          help.
        </dd>
      </dl>

      <h2 id="community">Community</h2>
      <p>
        Fieldline is free software under the GNU Affero General Public License, version 3 or later. Its source
        code, issue tracker and discussions are public: report bugs there, propose features, share validation
        cases and ask other users how they model their designs. When you report a solver problem, a small
        model that shows it is the most useful thing you can attach.
      </p>
    </>
  );
}
