import { adaptiveSummary, quantityLabel, quantityValue } from './adaptive-passes.ts';
import { lazyChart } from './lazy-charts.tsx';
import type { ProcessedResults } from './process-results.ts';
import { formatHz } from './quantities.ts';

// The convergence plot draws with the line charts: their own chunk, fetched when such a result is shown.
const AdaptiveConvergence = lazyChart(() =>
  import('./AdaptiveConvergence.tsx').then((m) => m.AdaptiveConvergence),
);

const sig = (v: number | null, digits = 3) => (v === null ? '—' : v.toPrecision(digits));

/**
 * Adaptive refinement's passes (solver_info.adaptive_passes): a table of unknowns, elements, estimated error,
 * the followed quantity and its change per pass, what stopped the passes, and the convergence plot. Every
 * family's results show it; a run without adaptive refinement draws nothing.
 */
export function AdaptivePasses({ results }: { results: ProcessedResults }) {
  const summary = adaptiveSummary(results.solverInfo);
  if (!summary) return null;
  const sParameters = summary.quantity === 'S';
  return (
    <div className="adaptive-passes" data-testid="adaptive-passes">
      <h3>Adaptive refinement</h3>
      <p className={summary.converged ? 'small' : 'small warning'} data-testid="adaptive-outcome">
        {summary.message}
      </p>
      {summary.adaptationFrequency !== null && (
        <p className="small" data-testid="adaptive-frequency-used">
          The passes solved {formatHz(summary.adaptationFrequency)} (the adaptation frequency); the requested
          sweep then ran on the final mesh.
        </p>
      )}
      <table className="kv adaptive-table" data-testid="adaptive-table">
        <thead>
          <tr>
            <th>Pass</th>
            <th>Unknowns</th>
            <th>Elements</th>
            <th>Est. error</th>
            <th>{quantityLabel(summary.quantity)}</th>
            <th>{sParameters ? '|ΔS|' : 'Change'}</th>
            <th>Time (s)</th>
          </tr>
        </thead>
        <tbody>
          {summary.passes.map((p) => (
            <tr key={p.pass} data-testid="adaptive-pass">
              <td>{p.pass}</td>
              <td>{p.unknowns.toLocaleString('en-US')}</td>
              <td>{p.elements.toLocaleString('en-US')}</td>
              <td>{sig(p.estimatedError)}</td>
              <td>{sig(quantityValue(p.quantity, summary.quantity), 5)}</td>
              <td>{sig(p.change)}</td>
              <td>{p.timeS.toFixed(1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {summary.passes.length > 1 && <AdaptiveConvergence summary={summary} />}
    </div>
  );
}
