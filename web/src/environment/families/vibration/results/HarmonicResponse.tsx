import { harmonicResponse } from '../../../results/harmonic-response.ts';
import { Legend, LineChart } from '../../../results/LineChart.tsx';
import { formatSI } from '../../../results/quantities.ts';

/** 0 Hz, 100 Hz, 1.2 kHz. */
export const hzLabel = (hz: number) => formatSI(hz, 'Hz');

/** A harmonic run's displacement amplitude at its probes against frequency (results `harmonic_response`),
 * |u| in micrometres (amplitude and phase per component are in the results JSON and the CSV download). */
export function HarmonicResponse({ result }: { result: Record<string, unknown> }) {
  const response = harmonicResponse(result);
  if (!response) return null;
  const f = response.frequencies;
  const series = response.probes.map((p) => ({
    name: p.name,
    values: p.displacement.amplitude.map((v) => Math.hypot(v[0] ?? 0, v[1] ?? 0, v[2] ?? 0) * 1e6),
  }));
  return (
    <div className="harmonic-response" data-testid="harmonic-response">
      <h3>Harmonic response</h3>
      <Legend names={series.map((s) => s.name)} />
      {/* a vibration band starts at 0 Hz, which the EM charts call "DC" */}
      <LineChart title="|u| (µm) against frequency" x={f} series={series} xLabel={hzLabel} />
    </div>
  );
}
