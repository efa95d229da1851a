import { isRecord } from '../../../../api/http.ts';
import { formatHz } from '../../../results/quantities.ts';
import { useServices } from '../../../state/EnvironmentContext.tsx';

interface Mode {
  mode: number | null;
  frequency: number;
  rigid_body: boolean;
  effective_mass_fraction_cumulative: number[] | null;
}

/** Natural frequencies (modal results): a row per mode, the cumulative effective-mass fractions; a click
 * shows that mode in the viewer (its frame on the mode axis). */
export function VibrationModes({ result }: { result: Record<string, unknown> }) {
  const { bridge } = useServices();
  const modes = (Array.isArray(result.modes) ? result.modes : []).filter(
    (m): m is Mode => isRecord(m) && typeof m.frequency === 'number',
  );
  if (modes.length === 0) return null;
  const pct = (v: number | undefined) => `${((v ?? 0) * 100).toFixed(1)} %`;
  let frame = 0;
  return (
    <div className="vibration-modes" data-testid="vibration-modes">
      <h3>Natural frequencies</h3>
      <table className="data">
        <thead>
          <tr>
            <th scope="col">Mode</th>
            <th scope="col">Frequency</th>
            {/* cumulative: a mode's own share is the step from the row above */}
            <th scope="col" title="Cumulative effective mass fraction in x, y, z, up to this mode">
              Cumulative mass x / y / z
            </th>
          </tr>
        </thead>
        <tbody>
          {modes.map((m, i) => {
            const index = m.rigid_body ? null : frame++;
            const cumulative = m.effective_mass_fraction_cumulative;
            return (
              // the modes are a fixed list per result; the index is their identity
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <tr key={i} data-testid={m.rigid_body ? 'rigid-mode' : `mode-${m.mode}`}>
                <th scope="row">
                  {index === null ? (
                    'rigid body'
                  ) : (
                    <button type="button" className="link" onClick={() => bridge.call('setFrame', index)}>
                      {m.mode}
                    </button>
                  )}
                </th>
                <td>{m.rigid_body ? '≈ 0 Hz' : formatHz(m.frequency)}</td>
                <td>{cumulative ? cumulative.map(pct).join(' / ') : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
