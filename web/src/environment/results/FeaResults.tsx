import type { FamilyModule, ResultPanel } from '../families/family-module.ts';
import { families, familyOfAnalysisType } from '../families/registry.ts';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { KeyValueTable } from '../ui/KeyValueTable.tsx';
import { ErrorBox } from '../ui/Messages.tsx';
import { showResultBody } from '../workflows/apply-results.ts';
import { AdaptivePasses } from './AdaptivePasses.tsx';
import { Downloads } from './Downloads.tsx';
import { magneticEnergyNeedsAir } from './magnetic-closure.ts';
import type { ProcessedResults } from './process-results.ts';
import { formatHz, formatSI, quantityText } from './quantities.ts';
import { RunSettings } from './RunSettings.tsx';
import { SolverNotes } from './SolverNotes.tsx';
import { iterativeSummary, sweepSummary } from './sweep-summary.ts';

/** The families whose panels a result shows: its analysis type's, or every family's for a result that does not
 * say (each panel draws nothing without its data). */
function resultFamilies(results: ProcessedResults): readonly FamilyModule[] {
  const type = results.analysisConfig?.analysisType ?? results.solverInfo?.analysis;
  const family = familyOfAnalysisType(type);
  return family ? [family] : families();
}

/** A result's family panels (each draws nothing when the result has nothing for it). */
function FamilyPanels({ panels, results }: { panels: readonly ResultPanel[]; results: ProcessedResults }) {
  return panels.map((Panel, i) => (
    // the families' panel lists are fixed: a panel's place in them is its identity
    // biome-ignore lint/suspicious/noArrayIndexKey: see above
    <Panel key={i} result={results.active} results={results} />
  ));
}

/** FEA results: solver info, computation time, key quantities, the family's panels, downloads. */
export function FeaResults() {
  const { deps } = useServices();
  const results = useEnv((s) => s.results);
  const error = useEnv((s) => s.analysis.error);
  const status = useEnv((s) => s.analysis.status);
  if (!results) {
    if (status === 'failed' && error) return <ErrorBox error={error} />;
    return <p className="muted small">Run an analysis or load a results file to see results here.</p>;
  }
  const info = results.solverInfo ?? {};
  const closedByShell = magneticEnergyNeedsAir(results.active, results.analysisConfig);
  const shown = resultFamilies(results);
  const family = shown.length === 1 ? shown[0] : undefined;
  const solverRows: [string, string][] = [];
  if (typeof info.analysis === 'string') solverRows.push(['Analysis', info.analysis]);
  if (family?.solverRows) solverRows.push(...family.solverRows(info));
  else if (typeof info.frequency === 'number') solverRows.push(['Frequency', formatHz(info.frequency)]);
  for (const [k, label] of [
    ['elements', 'Elements'],
    ['matrix_size', 'Unknowns'],
    ['non_zeros', 'Non-zeros'],
    ['element_order', 'Element order'],
    ['iterations', 'Iterations'],
  ] as const) {
    const v = info[k];
    if (typeof v === 'number') solverRows.push([label, v.toLocaleString()]);
  }
  if (typeof info.linear_solver === 'string') solverRows.push(['Linear solver', info.linear_solver]);
  const krylov = iterativeSummary(info);
  if (krylov) solverRows.push(['Krylov solves', krylov]);
  const sweep = sweepSummary(info);
  if (sweep) solverRows.push(['Frequency sweep', sweep]);
  if (results.computationTime !== null)
    solverRows.push(['Computation time', `${results.computationTime.toFixed(2)} s`]);

  return (
    <div className="fea-results" data-testid="fea-results">
      {results.multiBody && (
        <div className="multibody-results">
          <p className="small">
            {results.successCount ?? 0} of {results.meshCount ?? results.bodies.length} bodies solved.
          </p>
          <ul className="body-results">
            {results.bodies.map((b, i) => (
              // bodies are a fixed list per result; the index is their identity
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <li key={i}>
                <button
                  type="button"
                  className={i === results.activeBody ? 'active' : ''}
                  disabled={!b.success}
                  title={b.success ? 'Show this body' : (b.error ?? 'This body failed')}
                  onClick={() => showResultBody(i, deps)}
                >
                  {b.success ? '●' : '✕'} {b.name}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {results.quantities.length > 0 && (
        <table className="kv quantities" data-testid="quantities">
          <tbody>
            {results.quantities.flatMap((q) =>
              typeof q.value === 'object' && !Array.isArray(q.value)
                ? Object.entries(q.value).map(([name, v]) => (
                    <tr key={`${q.key}-${name}`} className="sub-quantity">
                      <th>
                        {q.label} · {name}
                      </th>
                      <td>{formatSI(v, q.unit)}</td>
                    </tr>
                  ))
                : [
                    <tr key={q.key} data-testid={`quantity-${q.key}`}>
                      <th>{q.label}</th>
                      <td>{quantityText(q)}</td>
                    </tr>,
                    ...(q.key === 'magnetic_energy_J' && closedByShell
                      ? [<MagneticClosureNote key={`${q.key}-note`} />]
                      : []),
                    ...(q.key === 'stored_energy_J' && q.value === 0
                      ? [<ZeroFieldNote key={`${q.key}-note`} />]
                      : []),
                  ],
            )}
          </tbody>
        </table>
      )}
      <FamilyPanels panels={shown.flatMap((f) => f.summaryPanels)} results={results} />
      <KeyValueTable rows={solverRows} className="solver" testId="solver-info" />
      <RunSettings config={results.analysisConfig} />
      <AdaptivePasses results={results} />
      <SolverNotes
        info={results.solverInfo}
        warningsListed={shown.some((f) => !!results.solverInfo && !!f.listsOwnWarnings?.(results.solverInfo))}
      />
      <FamilyPanels panels={shown.flatMap((f) => f.resultPanels)} results={results} />
      <Downloads />
    </div>
  );
}

/** Beside "Magnetic energy" of a model that is conductor throughout (magnetic-closure.ts). */
/**
 * An electrostatic run whose stored energy is exactly 0 had nothing driving it (qa31: one terminal at 0 V, the
 * other left without faces, gave "0 J, 0 C" and a blank plot with no word why).
 */
function ZeroFieldNote() {
  return (
    <tr className="quantity-note" data-testid="zero-field-note">
      <td colSpan={2}>
        The field is zero everywhere: every terminal is at the same potential and nothing else drives it. Give
        another face group a different voltage (a group without faces is not sent).
      </td>
    </tr>
  );
}

function MagneticClosureNote() {
  return (
    <tr className="quantity-note" data-testid="magnetic-closure-note">
      <td colSpan={2}>
        No air region: this energy rests on n×A = 0 at the model's boundary (a closed conducting shell
        carrying the return current), not a free-space inductance; add air around the conductor for that.{' '}
        <a href="/#/docs?section=magnetic-closure" target="_blank" rel="noopener">
          Why
        </a>
      </td>
    </tr>
  );
}
