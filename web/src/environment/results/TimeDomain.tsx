import { isRecord } from '../api/http.ts';
import { Legend, LineChart } from './LineChart.tsx';
import { formatSI } from './quantities.ts';

const ns = (t: number) => formatSI(t, 's', 3);
const nums = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);
const magnitude = (v: unknown): number =>
  Array.isArray(v) ? Math.hypot(...v.map(Number)) : typeof v === 'number' ? Math.abs(v) : 0;

/** Time-domain results: |E| at each probe and the stored energy against time, and the run's notes. */
export function TimeDomain({ result }: { result: Record<string, unknown> }) {
  const info = isRecord(result.time_domain_info) ? result.time_domain_info : null;
  if (!info) return null;
  const times = nums(info.times);
  const probes = (Array.isArray(info.probes) ? info.probes : []).filter(isRecord);
  const probeSeries = probes.map((p, i) => ({
    name: typeof p.name === 'string' ? p.name : `Probe ${i + 1}`,
    values: (Array.isArray(p.e) ? p.e : []).map(magnitude),
  }));
  const energy = isRecord(info.energy) ? info.energy : null;
  const notes = Array.isArray(info.notes) ? info.notes.filter((n): n is string => typeof n === 'string') : [];
  return (
    <div className="time-domain" data-testid="time-domain">
      <h4>Time domain</h4>
      <p className="small muted">
        {typeof info.steps === 'number' ? `${info.steps.toLocaleString()} steps` : ''}
        {typeof info.time_step === 'number' ? ` of ${formatSI(info.time_step, 's')}` : ''}
        {typeof info.scheme === 'string' ? ` · ${info.scheme}` : ''}
      </p>
      {times.length > 1 && probeSeries.some((s) => s.values.length > 0) && (
        <>
          <Legend names={probeSeries.map((s) => s.name)} />
          <LineChart title="|E| at probes (V/m)" x={times} series={probeSeries} xLabel={ns} />
        </>
      )}
      {energy && nums(energy.times).length > 1 && (
        <LineChart
          title="Stored energy (J)"
          x={nums(energy.times)}
          series={[
            { name: 'electric', values: nums(energy.electric) },
            { name: 'magnetic', values: nums(energy.magnetic) },
            { name: 'total', values: nums(energy.total) },
          ]}
          xLabel={ns}
        />
      )}
      {notes.length > 0 && (
        <ul className="notes small">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
