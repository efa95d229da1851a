import { parseNumber } from '../config/numbers.ts';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { ErrorBox, Notice } from '../ui/Messages.tsx';
import { runAnalysis } from '../workflows/run-analysis.ts';
import { generateVolumeMesh } from '../workflows/run-meshing.ts';
import { diagnosticLines } from './problem-markers.ts';

/** "Surface Mesh Loaded": mesh size controls and Generate Volume Mesh (spec 001 §2). */
export function SurfaceMeshCard() {
  const { store, deps, jobs } = useServices();
  const meshing = useEnv((s) => s.meshing);
  const model = useEnv((s) => s.model);
  const busy = meshing.status === 'submitting' || meshing.status === 'meshing';
  const units = model?.mesh.units ?? 'm';
  const setOption = (key: 'maxElementSize' | 'minElementSize' | 'grading', text: string) =>
    store.set((s) => ({
      meshing: { ...s.meshing, options: { ...s.meshing.options, [key]: parseNumber(text) } },
    }));
  const start = async () => {
    const ok = await generateVolumeMesh(deps, jobs.start('meshing'));
    if (ok && store.get().form.autoRunAnalysis) await runAnalysis(deps, jobs.start('analysis'));
  };
  const lines = meshing.problemMarkers ? diagnosticLines(meshing.problemMarkers.diagnostics) : [];
  return (
    <div className="card" data-testid="surface-mesh-card">
      <h3>Surface Mesh Loaded</h3>
      <p className="muted small">
        {model?.mesh.faces.length.toLocaleString() ?? 0} surface triangles. The analysis needs a tetrahedral
        volume mesh.
      </p>
      <details className="mesh-options">
        <summary>Mesh size</summary>
        <div className="row2">
          <label className="field">
            <span>Max element size ({units})</span>
            <input
              placeholder="auto"
              defaultValue={meshing.options.maxElementSize ?? ''}
              onChange={(e) => setOption('maxElementSize', e.target.value)}
              data-testid="mesh-max-size"
            />
          </label>
          <label className="field">
            <span>Min element size ({units})</span>
            <input
              placeholder="auto"
              defaultValue={meshing.options.minElementSize ?? ''}
              onChange={(e) => setOption('minElementSize', e.target.value)}
            />
          </label>
          <label className="field">
            <span>Grading (0–1)</span>
            <input
              placeholder="0.3"
              defaultValue={meshing.options.grading ?? ''}
              onChange={(e) => setOption('grading', e.target.value)}
            />
          </label>
        </div>
      </details>
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={start}
          data-testid="generate-volume-mesh"
        >
          {busy ? 'Meshing…' : 'Generate Volume Mesh'}
        </button>
        {busy && (
          <button type="button" onClick={() => jobs.stop('meshing')}>
            Cancel
          </button>
        )}
      </div>
      {busy && <Progress value={meshing.progress} label={meshing.message} />}
      {meshing.status === 'failed' && meshing.message && (
        <p className="status-text bad" data-testid="meshing-status-text">
          {meshing.message}
        </p>
      )}
      {meshing.error && <ErrorBox error={meshing.error} testId="meshing-error" />}
      {meshing.notice && (
        <Notice tone="warn" testId="meshing-notice">
          {meshing.notice}
          {lines.length > 0 && (
            <ul className="diagnostics">
              {lines.map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          )}
        </Notice>
      )}
    </div>
  );
}

export function Progress({ value, label }: { value: number; label?: string }) {
  return (
    <div
      className="progress"
      role="progressbar"
      aria-valuenow={Math.round(value)}
      aria-valuemin={0}
      aria-valuemax={100}
    >
      <div className="progress-bar" style={{ width: `${Math.max(2, Math.min(100, value))}%` }} />
      <span className="progress-label">
        {Math.round(value)}%{label ? ` · ${label}` : ''}
      </span>
    </div>
  );
}
