import { Legend, LineChart } from './LineChart.tsx';
import { magnitudeDb, phaseDeg, type SParameterSet } from './s-parameters.ts';

export const ghz = (x: number) => `${+(x / 1e9).toPrecision(3)} GHz`;

/** |S| (dB) and phase (°) against frequency, one line per S-parameter. */
export function SParameterPlot({ data }: { data: SParameterSet }) {
  const mag = data.series.map((s) => ({
    name: s.name,
    values: s.re.map((re, i) => magnitudeDb(re, s.im[i] ?? 0)),
  }));
  const ph = data.series.map((s) => ({
    name: s.name,
    values: s.re.map((re, i) => phaseDeg(re, s.im[i] ?? 0)),
  }));
  return (
    <div className="sparam-plot" data-testid="sparam-plot">
      <Legend names={data.series.map((s) => s.name)} />
      <LineChart title="|S| (dB)" x={data.frequencies} series={mag} xLabel={ghz} />
      <LineChart title="Phase (°)" x={data.frequencies} series={ph} xLabel={ghz} yRange={[-180, 180]} />
    </div>
  );
}
