import { isRecord } from '../../../../api/http.ts';
import { Legend, LineChart } from '../../../results/LineChart.tsx';
import { formatSI } from '../../../results/quantities.ts';

interface Probe {
  name: string;
  temperature: number[];
}

/** A transient thermal run's temperature at its probes over time (results `thermal_history`), in °C. */
export function ThermalHistory({ result }: { result: Record<string, unknown> }) {
  const history = isRecord(result.thermal_history) ? result.thermal_history : null;
  if (!history || !Array.isArray(history.times)) return null;
  const times = history.times as number[];
  const probes = (Array.isArray(history.probes) ? history.probes : []).filter(
    (p): p is Probe => isRecord(p) && typeof p.name === 'string' && Array.isArray(p.temperature),
  );
  if (probes.length === 0) return null;
  const series = probes.map((p) => ({ name: p.name, values: p.temperature.map((t) => t - 273.15) }));
  return (
    <div className="thermal-history" data-testid="thermal-history">
      <h3>Temperature at the probes</h3>
      <Legend names={series.map((s) => s.name)} />
      <LineChart
        title="Temperature (°C) against time"
        x={times}
        series={series}
        xLabel={(t) => formatSI(t, 's', 3)}
      />
    </div>
  );
}
