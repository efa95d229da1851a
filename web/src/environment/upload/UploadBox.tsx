import { useRef, useState } from 'react';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { ErrorBox } from '../ui/Messages.tsx';
import { loadFile } from '../workflows/load-file.ts';
import { ACCEPT_ATTRIBUTE } from './file-kind.ts';

/** File upload with drag and drop; the same loader serves drops on the viewer. */
export function UploadBox() {
  const { deps, jobs } = useServices();
  const loading = useEnv((s) => s.loading);
  const error = useEnv((s) => s.uploadError);
  const fileName = useEnv((s) => s.model?.fileName);
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const load = (file: File | undefined) => {
    if (!file) return;
    jobs.stop('meshing');
    jobs.stop('analysis');
    void loadFile(file, deps);
  };
  return (
    <div className="upload">
      <label
        className={`dropzone${over ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          load(e.dataTransfer.files[0]);
        }}
      >
        <input
          ref={input}
          type="file"
          accept={ACCEPT_ATTRIBUTE}
          data-testid="file-input"
          onChange={(e) => {
            load(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <span className="dropzone-title">
          {loading ? 'Loading…' : fileName ? 'Replace model' : 'Upload a model'}
        </span>
        <span className="muted small">
          STEP, STP, STL, OBJ, ZIP, or JSON (mesh or FEA results) — click or drop
        </span>
      </label>
      {error && <ErrorBox error={error} testId="upload-error" />}
    </div>
  );
}
