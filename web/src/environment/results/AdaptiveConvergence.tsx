import type { AdaptiveSummary } from './adaptive-passes.ts';
import { quantityLabel, quantityValue } from './adaptive-passes.ts';
import { LineChart } from './LineChart.tsx';

const unknownsText = (n: number) => (n >= 1e4 ? `${Math.round(n / 1e3)} k` : String(Math.round(n)));

/** The passes' estimated error and followed quantity against unknowns (the convergence plot). */
export function AdaptiveConvergence({ summary }: { summary: AdaptiveSummary }) {
  const x = summary.passes.map((p) => p.unknowns);
  const errors = summary.passes.map((p) => p.estimatedError);
  const values = summary.passes.map((p) => quantityValue(p.quantity, summary.quantity));
  const changes = summary.passes.map((p) => p.change);
  const hasErrors = errors.every((e) => e !== null);
  const hasValues = values.every((v) => v !== null);
  return (
    <div className="adaptive-convergence" data-testid="adaptive-convergence">
      {hasErrors && (
        <LineChart
          title="Estimated relative error against unknowns"
          x={x}
          series={[{ name: 'estimated error', values: errors as number[] }]}
          xLabel={unknownsText}
        />
      )}
      {hasValues && (
        <LineChart
          title={`${quantityLabel(summary.quantity)} against unknowns`}
          x={x}
          series={[{ name: summary.quantity ?? 'quantity', values: values as number[] }]}
          xLabel={unknownsText}
        />
      )}
      {!hasErrors && changes.slice(1).every((c) => c !== null) && (
        <LineChart
          title="max |ΔS| between passes against unknowns"
          x={x.slice(1)}
          series={[{ name: '|ΔS|', values: changes.slice(1) as number[] }]}
          xLabel={unknownsText}
        />
      )}
    </div>
  );
}
