import { LineChart } from '../../../results/LineChart.tsx';
import { formatSI } from '../../../results/quantities.ts';

/** A B–H curve as the engine uses it: B (T) against H (A/m), through the origin. */
export function BhCurvePlot({ points, title }: { points: readonly [number, number][]; title: string }) {
  const withOrigin = points[0]?.[0] === 0 && points[0]?.[1] === 0 ? points : [[0, 0] as const, ...points];
  return (
    <div className="bh-curve" data-testid="bh-curve-plot">
      <LineChart
        title={title}
        x={withOrigin.map((p) => p[0])}
        series={[{ name: 'B (T)', values: withOrigin.map((p) => p[1]) }]}
        xLabel={(h) => formatSI(h, 'A/m', 2)}
      />
    </div>
  );
}
