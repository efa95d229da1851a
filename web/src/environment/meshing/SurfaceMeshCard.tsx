import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { ErrorBox, Notice } from '../ui/Messages.tsx';
import { runAnalysis } from '../workflows/run-analysis.ts';
import { generateVolumeMesh } from '../workflows/run-meshing.ts';
import { MeshSizeControls } from './MeshSizeControls.tsx';
import { diagnosticLines } from './problem-markers.ts';

/** "Surface Mesh Loaded": mesh size controls and Generate Volume Mesh (spec 001 §2). */
export function SurfaceMeshCard() {
  const { store, deps, jobs } = useServices();
  const meshing = useEnv((s) => s.meshing);
  const model = useEnv((s) => s.model);
  const busy = meshing.status === 'submitting' || meshing.status === 'meshing';
  const start = async () => {
    const ok = await generateVolumeMesh(deps, jobs.start('meshing'));
    if (ok && store.get().form.autoRunAnalysis) await runAnalysis(deps, jobs.start('analysis'));
  };
  const lines = meshing.problemMarkers ? diagnosticLines(meshing.problemMarkers.diagnostics) : [];
  return (
    <div className="env-card" data-testid="surface-mesh-card">
      <h3>Surface Mesh Loaded</h3>
      <p className="muted small">
        {model?.mesh.faces.length.toLocaleString() ?? 0} surface triangles. The analysis needs a tetrahedral
        volume mesh.
      </p>
      <MeshSizeControls />
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
