import { isRecord } from '../../../../api/http.ts';
import { formatHz } from '../../../results/quantities.ts';

/** Cavity eigenmodes (em-eigen results: eigenmodes[] with frequency_hz and q_factor). */
export function Eigenmodes({ result }: { result: Record<string, unknown> }) {
  const modes = Array.isArray(result.eigenmodes) ? result.eigenmodes.filter(isRecord) : [];
  if (modes.length === 0) return null;
  return (
    <>
      <h3>Eigenmodes</h3>
      <table className="grid" data-testid="eigenmodes">
        <thead>
          <tr>
            <th>Mode</th>
            <th>Frequency</th>
            <th>Q</th>
          </tr>
        </thead>
        <tbody>
          {modes.map((m, i) => (
            // modes are a fixed, ordered list
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <tr key={i}>
              <td>{i}</td>
              <td>{typeof m.frequency_hz === 'number' ? formatHz(m.frequency_hz) : '—'}</td>
              <td>{typeof m.q_factor === 'number' ? +m.q_factor.toPrecision(4) : '∞'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
