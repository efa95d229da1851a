import { isRecord } from '../../api/http.ts';
import { Legend, LineChart } from './LineChart.tsx';
import { formatHz } from './quantities.ts';

interface ProbeSeries {
  name: string;
  displacement: { amplitude: number[][] };
}

/** A harmonic run's displacement amplitude at its probes against frequency (results `harmonic_response`),
 * |u| in micrometres, and a CSV of amplitude and phase. */
export function HarmonicResponse({ result }: { result: Record<string, unknown> }) {
  const response = isRecord(result.harmonic_response) ? result.harmonic_response : null;
  if (!response || !Array.isArray(response.frequencies)) return null;
  const f = response.frequencies as number[];
  const probes = (Array.isArray(response.probes) ? response.probes : []).filter(
    (p): p is ProbeSeries => isRecord(p) && typeof p.name === 'string' && isRecord(p.displacement),
  );
  if (probes.length === 0) return null;
  const series = probes.map((p) => ({
    name: p.name,
    values: p.displacement.amplitude.map((v) => Math.hypot(v[0] ?? 0, v[1] ?? 0, v[2] ?? 0) * 1e6),
  }));
  return (
    <div className="harmonic-response" data-testid="harmonic-response">
      <h3>Harmonic response</h3>
      <Legend names={series.map((s) => s.name)} />
      <LineChart title="|u| (µm) against frequency" x={f} series={series} xLabel={formatHz} />
    </div>
  );
}
