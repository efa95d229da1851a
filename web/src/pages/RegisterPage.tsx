import { AUTH_MESSAGES } from '@fieldline/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { postRegister, postUsernameCheck, postValidateEmail } from '../auth/auth-api.ts';
import {
  canSubmitRegistration,
  EMAIL_CHECK_DEBOUNCE_MS,
  isEmailFormat,
  LOGIN_PATH,
  normalizeEmail,
  planDisplayName,
  planFromQuery,
  type RegisterForm,
  registrationProblem,
  useAuth,
  usernameRuleMessage,
} from '../auth/index.ts';
import { AuthLayout, Banner } from '../components/AuthLayout.tsx';
import { usePageTitle } from '../components/page-title.ts';

type CheckState = 'idle' | 'checking' | 'valid' | 'invalid';
interface FieldCheck {
  state: CheckState;
  message: string;
}
const IDLE: FieldCheck = { state: 'idle', message: '' };

/** Debounced email check (spec 000 §5): format first, then the server's rules. */
function useEmailCheck(email: string): FieldCheck {
  const [check, setCheck] = useState<FieldCheck>(IDLE);
  useEffect(() => {
    if (email.trim() === '') {
      setCheck(IDLE);
      return;
    }
    setCheck({ state: 'checking', message: '' });
    const abort = new AbortController();
    const timer = setTimeout(async () => {
      if (!isEmailFormat(email)) {
        setCheck({ state: 'invalid', message: AUTH_MESSAGES.emailFormat });
        return;
      }
      try {
        const result = await postValidateEmail(normalizeEmail(email), abort.signal);
        if (result.ok) {
          setCheck(
            result.body.is_valid
              ? { state: 'valid', message: result.body.message }
              : { state: 'invalid', message: AUTH_MESSAGES.emailRejected },
          );
        } else if (result.status === 429 && result.message) {
          setCheck({ state: 'invalid', message: result.message });
        } else {
          setCheck({ state: 'invalid', message: AUTH_MESSAGES.emailServerError });
        }
      } catch {
        if (!abort.signal.aborted) setCheck({ state: 'invalid', message: AUTH_MESSAGES.emailServerError });
      }
    }, EMAIL_CHECK_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [email]);
  return check;
}

/** Debounced username availability check with the server's suggestions. */
function useUsernameCheck(username: string): FieldCheck & { suggestions: string[] } {
  const [check, setCheck] = useState<FieldCheck & { suggestions: string[] }>({ ...IDLE, suggestions: [] });
  useEffect(() => {
    if (username === '') {
      setCheck({ ...IDLE, suggestions: [] });
      return;
    }
    const rule = usernameRuleMessage(username);
    if (rule) {
      setCheck({ state: 'invalid', message: rule, suggestions: [] });
      return;
    }
    setCheck({ state: 'checking', message: '', suggestions: [] });
    const abort = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const result = await postUsernameCheck(username, abort.signal);
        setCheck({
          state: result.isValid ? 'valid' : 'invalid',
          message: result.message,
          suggestions: result.suggestions,
        });
      } catch {
        if (!abort.signal.aborted) {
          setCheck({ state: 'invalid', message: AUTH_MESSAGES.usernameInvalid, suggestions: [] });
        }
      }
    }, EMAIL_CHECK_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [username]);
  return check;
}

function FieldHint({ id, check }: { id: string; check: FieldCheck }) {
  if (check.state === 'idle') return null;
  const text = check.state === 'checking' ? 'Checking...' : check.message;
  return (
    <p id={id} className={`field-hint hint-${check.state}`} aria-live="polite">
      {text}
    </p>
  );
}

/** Spec 000 §2 register screen. */
export function RegisterPage() {
  usePageTitle('Register');
  const [params] = useSearchParams();
  const plan = planFromQuery(params.get('plan'));
  const navigate = useNavigate();
  const { login } = useAuth();
  const [form, setForm] = useState<RegisterForm>({
    name: '',
    email: '',
    username: '',
    password: '',
    confirmPassword: '',
    acceptedTerms: false,
  });
  const [error, setError] = useState<string | null>(null);
  // Suggestions from a refused registration (spec 000 §7: the error body has message and suggestions),
  // e.g. when the username was taken between the availability check and the submit.
  const [refusedSuggestions, setRefusedSuggestions] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const emailCheck = useEmailCheck(form.email);
  const usernameCheck = useUsernameCheck(form.username);
  const checks = { emailValid: emailCheck.state === 'valid', usernameValid: usernameCheck.state === 'valid' };
  const set = <K extends keyof RegisterForm>(key: K, value: RegisterForm[K]) => {
    if (key === 'username') setRefusedSuggestions([]);
    setForm((f) => ({ ...f, [key]: value }));
  };
  const suggestions = usernameCheck.suggestions.length > 0 ? usernameCheck.suggestions : refusedSuggestions;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = registrationProblem(form, checks);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    setRefusedSuggestions([]);
    try {
      const email = normalizeEmail(form.email);
      const outcome = await postRegister({
        name: form.name.trim(),
        email,
        username: form.username,
        password: form.password,
        acceptedTerms: form.acceptedTerms,
        plan,
      });
      if (!outcome.ok) {
        setError(outcome.message);
        setRefusedSuggestions(outcome.suggestions);
        setBusy(false);
        return;
      }
      const signedIn = await login(email, form.password);
      if (signedIn.success) navigate('/', { replace: true });
      else navigate(LOGIN_PATH, { replace: true, state: { message: AUTH_MESSAGES.registrationLoginFailed } });
    } catch {
      setError(AUTH_MESSAGES.registrationError);
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Create Account">
      <Banner kind="info">You're signing up for the {planDisplayName(plan)} plan.</Banner>
      {error && <Banner kind="error">{error}</Banner>}
      <form onSubmit={onSubmit} className="form" noValidate>
        <label htmlFor="register-name">Full Name</label>
        <input
          id="register-name"
          autoComplete="name"
          value={form.name}
          onChange={(e) => set('name', e.target.value)}
          required
        />

        <label htmlFor="register-email">Email</label>
        <input
          id="register-email"
          type="email"
          autoComplete="email"
          value={form.email}
          onChange={(e) => set('email', e.target.value)}
          aria-describedby="register-email-hint"
          aria-invalid={emailCheck.state === 'invalid'}
          required
        />
        <FieldHint id="register-email-hint" check={emailCheck} />

        <label htmlFor="register-username">Username</label>
        <input
          id="register-username"
          autoComplete="username"
          value={form.username}
          onChange={(e) => set('username', e.target.value)}
          aria-describedby="register-username-hint"
          aria-invalid={usernameCheck.state === 'invalid'}
          required
        />
        <FieldHint id="register-username-hint" check={usernameCheck} />
        {suggestions.length > 0 && (
          <div className="suggestions">
            <span className="muted">Available:</span>
            {suggestions.map((s) => (
              <button key={s} type="button" className="suggestion-chip" onClick={() => set('username', s)}>
                {s}
              </button>
            ))}
          </div>
        )}

        <label htmlFor="register-password">Password</label>
        <input
          id="register-password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={(e) => set('password', e.target.value)}
          aria-describedby="register-password-rule"
          required
        />
        <p id="register-password-rule" className="field-hint muted">
          At least 8 characters. Long passphrases are welcome.
        </p>

        <label htmlFor="register-confirm">Confirm Password</label>
        <input
          id="register-confirm"
          type="password"
          autoComplete="new-password"
          value={form.confirmPassword}
          onChange={(e) => set('confirmPassword', e.target.value)}
          required
        />

        <div className="checkbox-row">
          <input
            id="register-terms"
            type="checkbox"
            checked={form.acceptedTerms}
            onChange={(e) => set('acceptedTerms', e.target.checked)}
          />
          <label htmlFor="register-terms">
            I accept the{' '}
            <Link to="/terms" target="_blank">
              Terms and Conditions
            </Link>{' '}
            and the{' '}
            <Link to="/privacy" target="_blank">
              Privacy Policy
            </Link>
          </label>
        </div>

        <button type="submit" className="primary" disabled={!canSubmitRegistration(form, checks, busy)}>
          {busy ? 'Creating account...' : 'Create Account'}
        </button>
      </form>
      <div className="auth-links">
        <span>
          Already have an account? <Link to={LOGIN_PATH}>Log In</Link>
        </span>
        <Link to="/">Back to Home</Link>
      </div>
    </AuthLayout>
  );
}
