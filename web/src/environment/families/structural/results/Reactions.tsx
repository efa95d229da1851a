import { isRecord } from '../../../../api/http.ts';
import { formatSI } from '../../../results/quantities.ts';

interface Reaction {
  support: string;
  reaction_N: [number, number, number];
}

function reactionsOf(result: Record<string, unknown>): Reaction[] {
  const q = isRecord(result.quantities) ? result.quantities : {};
  const list = Array.isArray(q.reactions) ? q.reactions : [];
  return list.filter(
    (r): r is Reaction =>
      isRecord(r) &&
      typeof r.support === 'string' &&
      Array.isArray(r.reaction_N) &&
      r.reaction_N.length === 3,
  );
}

/** The force each support exerts on the part (structural results), and how well they balance the loads. */
export function Reactions({ result }: { result: Record<string, unknown> }) {
  const reactions = reactionsOf(result);
  if (reactions.length === 0) return null;
  const q = result.quantities as Record<string, unknown>;
  const applied = Array.isArray(q.applied_load_N) ? (q.applied_load_N as number[]) : null;
  const balance = typeof q.reaction_balance_error === 'number' ? q.reaction_balance_error : null;
  // Components at round-off level of the largest force (1e-9 of it) read as 0, not as "−25 pN".
  const largest = Math.max(
    1e-300,
    ...reactions.flatMap((r) => r.reaction_N.map(Math.abs)),
    ...(applied ?? []).map(Math.abs),
  );
  const cell = (v: number | undefined) => formatSI(Math.abs(v ?? 0) < 1e-9 * largest ? 0 : (v ?? 0), 'N');
  return (
    <div className="reactions" data-testid="reactions">
      <h3>Reaction forces</h3>
      <table className="data">
        <thead>
          <tr>
            <th scope="col">Support</th>
            <th scope="col">Fx</th>
            <th scope="col">Fy</th>
            <th scope="col">Fz</th>
          </tr>
        </thead>
        <tbody>
          {reactions.map((r) => (
            <tr key={r.support} data-testid={`reaction-${r.support}`}>
              <th scope="row">{r.support}</th>
              {r.reaction_N.map((v, k) => (
                // three fixed components
                // biome-ignore lint/suspicious/noArrayIndexKey: x, y, z
                <td key={k}>{cell(v)}</td>
              ))}
            </tr>
          ))}
          {applied && (
            <tr className="sub-quantity">
              <th scope="row">Applied loads</th>
              {applied.map((v, k) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: x, y, z
                <td key={k}>{cell(v)}</td>
              ))}
            </tr>
          )}
        </tbody>
      </table>
      {balance !== null && (
        <p className="small muted">
          Reactions balance the applied loads to {balance.toExponential(1)} (relative).
        </p>
      )}
    </div>
  );
}
