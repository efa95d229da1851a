import { Legend, LineChart } from '../../../results/LineChart.tsx';
import { magnitudeDb, phaseDeg, type SParameterSet } from '../../../results/s-parameters.ts';

export const ghz = (x: number) => `${+(x / 1e9).toPrecision(3)} GHz`;

/** The lowest level the |S| chart shows: a numerically zero S11 (−300 dB) would flatten the rest. */
const DB_FLOOR = -200;

/**
 * The |S| (dB) axis on whole 10 dB steps, 0 dB at the top for a passive network (a lossless line's
 * |S21| reads "0", not "−1.1e-5"), floored at DB_FLOOR.
 */
export function dbRange(values: number[]): [number, number] {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return [-40, 0];
  const lo = Math.max(DB_FLOOR, Math.floor(Math.min(...finite) / 10) * 10);
  const hi = Math.max(0, Math.ceil(Math.max(...finite) / 10) * 10);
  return [Math.min(lo, hi - 10), hi];
}

/** |S| (dB) and phase (°, wrapped to ±180° and drawn with gaps at the wraps) against frequency. */
export function SParameterPlot({ data }: { data: SParameterSet }) {
  const mag = data.series.map((s) => ({
    name: s.name,
    values: s.re.map((re, i) => Math.max(DB_FLOOR, magnitudeDb(re, s.im[i] ?? 0))),
  }));
  const ph = data.series.map((s) => ({
    name: s.name,
    values: s.re.map((re, i) => phaseDeg(re, s.im[i] ?? 0)),
  }));
  return (
    <div className="sparam-plot" data-testid="sparam-plot">
      <Legend names={data.series.map((s) => s.name)} />
      <LineChart
        title="|S| (dB)"
        x={data.frequencies}
        series={mag}
        xLabel={ghz}
        yRange={dbRange(mag.flatMap((s) => s.values))}
      />
      <LineChart
        title="Phase (°)"
        x={data.frequencies}
        series={ph}
        xLabel={ghz}
        yRange={[-180, 180]}
        yTicks={[-180, -90, 0, 90, 180]}
        wrapPeriod={360}
      />
    </div>
  );
}
