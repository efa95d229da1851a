import { useLocation } from 'react-router';
import { AnalysisConfigForm } from '../config/AnalysisConfigForm.tsx';
import { MeshQualityReport } from '../meshing/MeshQualityReport.tsx';
import { MeshSizeControls } from '../meshing/MeshSizeControls.tsx';
import { MultiBodyBox } from '../meshing/MultiBodyBox.tsx';
import { SliverWarning } from '../meshing/SliverWarning.tsx';
import { SurfaceMeshCard } from '../meshing/SurfaceMeshCard.tsx';
import { RunBar, RunStatus } from '../run/RunBar.tsx';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { hasVolumeMesh } from '../state/environment-state.ts';
import { StudyPanel } from '../studies/StudyPanel.tsx';
import { UnitsPicker } from '../upload/UnitsPicker.tsx';
import { UploadBox } from '../upload/UploadBox.tsx';
import { clearData } from '../workflows/clear-data.ts';

/** Left panel "FEA Configuration" (spec 001 §2). */
export function LeftPanel() {
  const { deps, jobs } = useServices();
  const model = useEnv((s) => s.model);
  const meshingDone = useEnv((s) => s.meshing.status === 'completed');
  const volume = hasVolumeMesh(model);
  const studyInUrl = new URLSearchParams(useLocation().search).has('study');
  return (
    <aside className="panel left" aria-label="FEA Configuration" data-testid="left-panel">
      <header className="panel-head">
        <h2>FEA Configuration</h2>
      </header>
      <div className="panel-body">
        <UploadBox />
        {model && (
          <div className="model-line">
            <span className="file-name" title={model.fileName}>
              {model.fileName}
            </span>
            <button
              type="button"
              className="link"
              data-testid="clear-data"
              onClick={() => {
                jobs.stop('meshing');
                jobs.stop('analysis');
                clearData(deps);
              }}
            >
              Clear Data
            </button>
          </div>
        )}
        {model && <UnitsPicker />}
        {model?.repairs && model.repairs.length > 0 && (
          <details className="repairs">
            <summary>{model.repairs.length} automatic repairs</summary>
            <ul>
              {model.repairs.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          </details>
        )}
        <MultiBodyBox />
        {model && !volume && <SurfaceMeshCard />}
        {model && volume && (
          <div className="env-card compact" data-testid="volume-mesh-card">
            <h3>{meshingDone ? 'Meshing: completed' : 'Volume mesh'}</h3>
            <MeshQualityReport />
            <SliverWarning />
            {/* the settings a design study's re-meshed points use, each sweepable (docs/studies.md) */}
            {model.uploadId && <MeshSizeControls forStudies />}
          </div>
        )}
        {model && volume && <AnalysisConfigForm />}
        {model && volume && <RunBar />}
        {((model && volume) || studyInUrl) && <StudyPanel />}
        {!(model && volume) && <RunStatus />}
        {!model && (
          <p className="muted small empty-hint">
            Start by uploading a STEP/STL/OBJ model, a mesh in JSON form, or a results file you saved earlier.
          </p>
        )}
      </div>
    </aside>
  );
}
