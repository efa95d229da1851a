import { isRecord } from '../../../../api/http.ts';
import { lazyChart } from '../../../results/lazy-charts.tsx';
import type { ProcessedResults } from '../../../results/process-results.ts';
import { formatSI } from '../../../results/quantities.ts';
import { portImpedanceText } from './port-impedances.ts';
import { SParameterTable } from './SParameterTable.tsx';

// The plot draws with the line charts: their own chunk, fetched when a result is first shown.
const SParameterPlot = lazyChart(() => import('./SParameterPlot.tsx').then((m) => m.SParameterPlot));

/** The S-parameter plot and table of a sweep (or of the time-domain run's one pulse per port). */
export function SParametersPanel({ results }: { results: ProcessedResults }) {
  if (!results.sParameters) return null;
  const matrixSource = sParameterSource(results.active);
  const portImpedances = portImpedanceText(results.sParameters, (z) => formatSI(z, 'Ω'));
  return (
    <>
      <h3>S-parameters</h3>
      {matrixSource && (
        <p className="small muted" data-testid="sparam-source">
          {matrixSource}
        </p>
      )}
      <SParameterPlot data={results.sParameters} />
      <SParameterTable data={results.sParameters} />
      {portImpedances && (
        <p className="small" data-testid="sparam-port-impedances">
          {portImpedances}
        </p>
      )}
    </>
  );
}

/** Where a matrix came from when it is not a frequency-domain sweep (em-time: one pulse per port). */
function sParameterSource(result: Record<string, unknown>): string | null {
  const sp = result.s_parameters;
  if (!isRecord(sp) || typeof sp.source !== 'string') return null;
  const runs = isRecord(sp.performance) ? sp.performance.runs : undefined;
  const norm = typeof sp.normalization === 'string' ? `; ${sp.normalization}` : '';
  return `Full S-matrix from the time-domain run: ${sp.source}${typeof runs === 'number' ? `, ${runs} runs` : ''}${norm}.`;
}
