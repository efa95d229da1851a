import {
  API_TOKEN_MAX_EXPIRY_DAYS,
  API_TOKEN_NAME_MAX,
  type ApiToken,
  type ApiTokenScope,
  type CreateApiTokenResponse,
} from '@fieldline/contracts';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { formatDate } from '../../billing/usage-rules.ts';
import { createToken, listTokens, revokeToken } from './tokens-api.ts';

const NEVER = 'never';

/**
 * Dashboard "API tokens" (issue 38, docs/api.md): create a named token with a scope and an expiry (1–365
 * days or none), see its secret once, list the live ones (name, scope, created, last used, expires) and
 * revoke them. Scripts and the Python client send the secret as `Authorization: Bearer fl_…`.
 */
export function ApiTokensPanel() {
  const [tokens, setTokens] = useState<ApiToken[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiTokenScope>('run');
  const [expiry, setExpiry] = useState('90');
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreateApiTokenResponse | null>(null);
  const [copied, setCopied] = useState(false);

  const reload = useCallback(async () => {
    const outcome = await listTokens();
    if (outcome.ok) setTokens(outcome.value);
    else setError(outcome.message);
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  const days = expiry === NEVER ? null : Number(expiry);
  const expiryValid =
    days === null || (Number.isInteger(days) && days >= 1 && days <= API_TOKEN_MAX_EXPIRY_DAYS);
  const nameValid = name.trim().length > 0 && name.trim().length <= API_TOKEN_NAME_MAX;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!nameValid || !expiryValid) return;
    setBusy(true);
    setError(null);
    const outcome = await createToken({ name: name.trim(), scope, expires_in_days: days });
    setBusy(false);
    if (!outcome.ok) return setError(outcome.message);
    setCreated(outcome.value);
    setCopied(false);
    setName('');
    await reload();
  };

  const revoke = async (token: ApiToken) => {
    if (!window.confirm(`Revoke the token "${token.name}"? Scripts using it stop working at once.`)) return;
    const outcome = await revokeToken(token.id);
    if (!outcome.ok) return setError(outcome.message);
    if (created?.id === token.id) setCreated(null);
    await reload();
  };

  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.token);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <section className="panel-card dash-tokens" aria-labelledby="tokens-title">
      <h2 id="tokens-title">API tokens</h2>
      <p className="muted">
        For scripts, notebooks and the <code>fieldline</code> command line (see the API guide in the docs). A
        token acts as you: <strong>read</strong> sees jobs, results and usage; <strong>run</strong> also
        uploads, runs and spends.
      </p>
      {error && (
        <p className="banner banner-error" role="alert">
          {error}
        </p>
      )}
      {created && (
        <div className="banner banner-success dash-token-secret" role="status" data-testid="new-token">
          <p>
            Your new token <strong>{created.name}</strong>. Copy it now: it is shown only once.
          </p>
          <code data-testid="token-secret">{created.token}</code>
          <button type="button" className="btn btn-secondary" onClick={() => void copy()}>
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      )}
      <form className="dash-token-form" onSubmit={(e) => void submit(e)}>
        <label>
          Name
          <input
            value={name}
            maxLength={API_TOKEN_NAME_MAX}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. nightly regression"
            aria-label="Token name"
          />
        </label>
        <label>
          Scope
          <select
            value={scope}
            onChange={(e) => setScope(e.target.value as ApiTokenScope)}
            aria-label="Token scope"
          >
            <option value="run">run — upload, run and read</option>
            <option value="read">read — read only</option>
          </select>
        </label>
        <label>
          Expires
          <select value={expiry} onChange={(e) => setExpiry(e.target.value)} aria-label="Token expiry">
            <option value="7">in 7 days</option>
            <option value="30">in 30 days</option>
            <option value="90">in 90 days</option>
            <option value="365">in 365 days</option>
            <option value={NEVER}>never</option>
          </select>
        </label>
        <button type="submit" className="btn btn-primary" disabled={busy || !nameValid || !expiryValid}>
          {busy ? 'Creating…' : 'Create token'}
        </button>
      </form>
      {tokens === null && !error && <p className="muted">Loading…</p>}
      {tokens?.length === 0 && <p className="muted">No API tokens yet.</p>}
      {tokens && tokens.length > 0 && (
        <table className="dash-token-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Scope</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id} data-testid="api-token-row">
                <td>{token.name}</td>
                <td>{token.scope}</td>
                <td>{formatDate(token.created_at)}</td>
                <td>{token.last_used_at ? formatDate(token.last_used_at, true) : 'never'}</td>
                <td>{token.expires_at ? formatDate(token.expires_at) : 'never'}</td>
                <td>
                  <button type="button" className="btn btn-secondary" onClick={() => void revoke(token)}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
