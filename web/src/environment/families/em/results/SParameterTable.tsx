import { ScrollRegion } from '../../../../components/ScrollRegion.tsx';
import { formatHz } from '../../../results/quantities.ts';
import { magnitudeDb, phaseDeg, type SParameterSet } from '../../../results/s-parameters.ts';

const MAX_ROWS = 201;

/** x to `digits` decimals without a negative zero: a lossless line's |S21| reads 0.00 dB, not −0.00. */
export function fixed(x: number, digits: number): string {
  const text = x.toFixed(digits);
  return Number(text) === 0 ? (0).toFixed(digits) : text;
}

/** |S| in dB and phase in degrees per frequency; long sweeps are thinned for display. */
export function SParameterTable({ data }: { data: SParameterSet }) {
  const n = data.frequencies.length;
  const stride = Math.max(1, Math.ceil(n / MAX_ROWS));
  const rows = data.frequencies.map((f, i) => ({ f, i })).filter(({ i }) => i % stride === 0 || i === n - 1);
  return (
    <ScrollRegion label="S-parameter table">
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
            <td />
            {data.series.map((s) => [<th key={`${s.name}-db`}>dB</th>, <th key={`${s.name}-deg`}>°</th>])}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ f, i }) => (
            <tr key={i}>
              <td>{formatHz(f)}</td>
              {data.series.map((s) => [
                <td key={`${s.name}-db`}>{fixed(magnitudeDb(s.re[i] ?? 0, s.im[i] ?? 0), 2)}</td>,
                <td key={`${s.name}-deg`}>{fixed(phaseDeg(s.re[i] ?? 0, s.im[i] ?? 0), 1)}</td>,
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
    </ScrollRegion>
  );
}
