import { formatHz } from './quantities.ts';
import { magnitudeDb, phaseDeg, type SParameterSet } from './s-parameters.ts';

const MAX_ROWS = 201;

/** |S| in dB and phase in degrees per frequency; long sweeps are thinned for display. */
export function SParameterTable({ data }: { data: SParameterSet }) {
  const n = data.frequencies.length;
  const stride = Math.max(1, Math.ceil(n / MAX_ROWS));
  const rows = data.frequencies.map((f, i) => ({ f, i })).filter(({ i }) => i % stride === 0 || i === n - 1);
  return (
    <div className="table-scroll">
      <table className="grid" data-testid="sparam-table">
        <thead>
          <tr>
            <th>Frequency</th>
            {data.series.map((s) => (
              <th key={s.name} colSpan={2}>
                {s.name}
              </th>
            ))}
          </tr>
          <tr className="sub">
            <th />
            {data.series.map((s) => [<th key={`${s.name}-db`}>dB</th>, <th key={`${s.name}-deg`}>°</th>])}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ f, i }) => (
            <tr key={i}>
              <td>{formatHz(f)}</td>
              {data.series.map((s) => [
                <td key={`${s.name}-db`}>{magnitudeDb(s.re[i] ?? 0, s.im[i] ?? 0).toFixed(2)}</td>,
                <td key={`${s.name}-deg`}>{phaseDeg(s.re[i] ?? 0, s.im[i] ?? 0).toFixed(1)}</td>,
              ])}
            </tr>
          ))}
        </tbody>
      </table>
      {stride > 1 && (
        <p className="muted small">
          Every {stride}th point shown; the downloads hold all {n}.
        </p>
      )}
    </div>
  );
}
