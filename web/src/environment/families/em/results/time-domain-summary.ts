import { isRecord } from '../../../../api/http.ts';
import { formatSI } from '../../../results/quantities.ts';

const PULSE_NAMES: Record<string, string> = {
  gaussian: 'Gaussian pulse',
  modulated_gaussian: 'Modulated Gaussian',
  sinusoidal: 'Sinusoid',
};
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The rows that describe a time-domain run: steps and scheme, the excitation (time_domain_info.excitation),
 * the explicit scheme's stable step (stability) and the stepping speed (performance).
 */
export function timeDomainSummary(info: Record<string, unknown>): [string, string][] {
  const rows: [string, string][] = [];
  const steps = num(info.steps);
  const dt = num(info.time_step);
  if (steps !== null && dt !== null) {
    const scheme = typeof info.scheme === 'string' ? ` · ${info.scheme}` : '';
    rows.push(['Time steps', `${steps.toLocaleString()} × ${formatSI(dt, 's')}${scheme}`]);
  }
  const ex = isRecord(info.excitation) ? info.excitation : null;
  if (ex && typeof ex.shape === 'string') {
    const parts = [PULSE_NAMES[ex.shape] ?? ex.shape];
    const f = num(ex.frequency_hz);
    if (f !== null && f > 0) parts.push(`at ${formatSI(f, 'Hz')}`);
    const width = num(ex.width_s);
    if (width !== null) parts.push(`width ${formatSI(width, 's')}`);
    const delay = num(ex.delay_s);
    if (delay !== null) parts.push(`delay ${formatSI(delay, 's')}`);
    const ramp = num(ex.ramp_s);
    if (ramp !== null) parts.push(`ramp ${formatSI(ramp, 's')}`);
    rows.push(['Excitation', parts.join(', ')]);
    const sources = Array.isArray(ex.sources) ? ex.sources.filter((s) => typeof s === 'string') : [];
    if (sources.length > 0) rows.push(['Sources', sources.join(', ')]);
  }
  const stability = isRecord(info.stability) ? info.stability : null;
  const critical = stability ? num(stability.critical_time_step_s) : null;
  if (critical !== null) rows.push(['Stable step (explicit)', `< ${formatSI(critical, 's')}`]);
  const perf = isRecord(info.performance) ? info.performance : null;
  const rate = perf ? num(perf.steps_per_s) : null;
  if (rate !== null) rows.push(['Stepping speed', `${formatSI(rate, '', 3)} steps/s`]);
  return rows;
}
