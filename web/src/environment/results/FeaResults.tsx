import { isRecord } from '../../api/http.ts';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { KeyValueTable } from '../ui/KeyValueTable.tsx';
import { ErrorBox } from '../ui/Messages.tsx';
import { showResultBody } from '../workflows/apply-results.ts';
import { runAnalysis } from '../workflows/run-analysis.ts';
import { Downloads } from './Downloads.tsx';
import { Eigenmodes } from './Eigenmodes.tsx';
import { HeatFlows } from './HeatFlows.tsx';
// The charts come in their own chunk, fetched when a result is first shown.
import { HarmonicResponse, SParameterPlot, ThermalHistory, TimeDomain } from './lazy-charts.tsx';
import { magneticEnergyNeedsAir } from './magnetic-closure.ts';
import { formatHz, formatSI, quantityText } from './quantities.ts';
import { Reactions } from './Reactions.tsx';
import { RunSettings } from './RunSettings.tsx';
import { SolverNotes } from './SolverNotes.tsx';
import { SParameterTable } from './SParameterTable.tsx';
import { portImpedanceText } from './s-parameters.ts';
import { iterativeSummary, sweepSummary } from './sweep-summary.ts';
import { VibrationModes } from './VibrationModes.tsx';

/** FEA results: solver info, computation time, key quantities, S-parameters, downloads. */
export function FeaResults() {
  const { deps, jobs, store } = useServices();
  const results = useEnv((s) => s.results);
  const error = useEnv((s) => s.analysis.error);
  const status = useEnv((s) => s.analysis.status);
  if (!results) {
    if (status === 'failed' && error) return <ErrorBox error={error} />;
    return <p className="muted small">Run an analysis or load a results file to see results here.</p>;
  }
  const info = results.solverInfo ?? {};
  const closedByShell = magneticEnergyNeedsAir(results.active, results.analysisConfig);
  const matrixSource = sParameterSource(results.active);
  const portImpedances = results.sParameters
    ? portImpedanceText(results.sParameters, (z) => formatSI(z, 'Ω'))
    : null;
  const solverRows: [string, string][] = [];
  if (typeof info.analysis === 'string') solverRows.push(['Analysis', info.analysis]);
  if (info.analysis === 'em-time') {
    // a time-domain run's frequency is its pulse's carrier; a baseband Gaussian has none
    if (typeof info.frequency === 'number' && info.frequency > 0)
      solverRows.push(['Carrier frequency', formatHz(info.frequency)]);
  } else if (typeof info.frequency === 'number') solverRows.push(['Frequency', formatHz(info.frequency)]);
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

  const enableAnimation = () => {
    store.set((s) => ({ form: { ...s.form, animate: true, animationFrames: s.form.animationFrames || 50 } }));
    void runAnalysis(deps, jobs.start('analysis'));
  };

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
      <Reactions result={results.active} />
      <HeatFlows result={results.active} />
      <KeyValueTable rows={solverRows} className="solver" testId="solver-info" />
      <RunSettings config={results.analysisConfig} />
      <SolverNotes info={results.solverInfo} />
      <Eigenmodes result={results.active} />
      <TimeDomain result={results.active} />
      <ThermalHistory result={results.active} />
      <VibrationModes result={results.active} />
      <HarmonicResponse result={results.active} />
      {results.sParameters && (
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
      )}
      {results.timeDomain && results.animationFrames === 0 && (
        <div className="enable-animation">
          <button type="button" onClick={enableAnimation} data-testid="enable-animation">
            Enable Animation
          </button>
          <p className="muted small">
            These time-domain results have no frames; this runs the analysis again with 50 frames.
          </p>
        </div>
      )}
      <Downloads />
    </div>
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
