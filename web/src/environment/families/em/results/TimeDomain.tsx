import { isRecord } from '../../../../api/http.ts';
import { Legend, LineChart } from '../../../results/LineChart.tsx';
import { timeCharts } from '../../../results/time-series.ts';
import { transientResponse } from '../../../results/transient-response.ts';
import { KeyValueTable } from '../../../ui/KeyValueTable.tsx';
import { ResonanceTable } from './ResonanceTable.tsx';
import { resonances } from './resonances.ts';
import { TransientResponse } from './TransientResponse.tsx';
import { timeDomainSummary } from './time-domain-summary.ts';

const ns = (t: number) => `${+(t * 1e9).toPrecision(3)} ns`;

/**
 * Time-domain results (em-time): port and source voltages/currents, |E| at the probes and the stored
 * energy against time, the ringing frequencies at the probes, the broadband frequency response derived from
 * the pulse, and the run's notes.
 */
export function TimeDomain({ result }: { result: Record<string, unknown> }) {
  const info = isRecord(result.time_domain_info) ? result.time_domain_info : null;
  if (!info) return null;
  const response = transientResponse(result);
  const ringing = resonances(info);
  const notes = Array.isArray(info.notes) ? info.notes.filter((n): n is string => typeof n === 'string') : [];
  return (
    <div className="time-domain" data-testid="time-domain">
      <h3>Time-domain</h3>
      <KeyValueTable rows={timeDomainSummary(info)} className="time-summary" testId="time-domain-summary" />
      {timeCharts(info).map((chart) => (
        <div key={chart.title} className="time-chart">
          <Legend names={chart.series.map((s) => s.name)} />
          <LineChart title={chart.title} x={chart.x} series={chart.series} xLabel={ns} />
        </div>
      ))}
      {ringing && <ResonanceTable data={ringing} />}
      {response && <TransientResponse response={response} />}
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
