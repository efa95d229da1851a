import { useState } from 'react';
import { saveBlob } from '../results/save-blob.ts';
import { useEnv } from '../state/EnvironmentContext.tsx';
import { curlScript } from './curl-script.ts';
import { pythonScript } from './python-script.ts';
import { setupFromState } from './setup.ts';

/** The exported script's file name: the model's stem, made a valid Python module name. */
export function scriptFileName(modelFileName: string): string {
  const stem = modelFileName.replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9_]/g, '_') || 'model';
  return `${/^[0-9]/.test(stem) ? `_${stem}` : stem}_fieldline.py`;
}

/** "Export as script" (a Python file for the fieldline client) and "Copy as curl", beside Run Analysis. */
export function ExportButtons() {
  const state = useEnv((s) => s);
  const [copied, setCopied] = useState<string | null>(null);
  const fromUpload = Boolean(state.model?.uploadId) && state.model?.format !== 'json';
  if (!fromUpload) return null;
  const setup = () => setupFromState(state);
  const exportScript = () => {
    const s = setup();
    if (!s) return;
    saveBlob(new Blob([pythonScript(s)], { type: 'text/x-python' }), scriptFileName(s.fileName));
  };
  const copyCurl = async () => {
    const s = setup();
    if (!s) return;
    try {
      await navigator.clipboard.writeText(curlScript(s));
      setCopied('Copied the curl commands to the clipboard (set FIELDLINE_URL and FIELDLINE_TOKEN first).');
    } catch {
      setCopied('Copying failed: the browser refused clipboard access. Use Export as script instead.');
    }
  };
  return (
    <div className="export-actions">
      <div className="actions">
        <button
          type="button"
          data-testid="export-script"
          title="A Python file that runs this set-up with the fieldline client (docs/api.md)"
          onClick={exportScript}
        >
          Export as script
        </button>
        <button
          type="button"
          data-testid="copy-curl"
          title="The same submission as curl commands, with a $FIELDLINE_TOKEN placeholder"
          onClick={() => void copyCurl()}
        >
          Copy as curl
        </button>
      </div>
      {copied && (
        <p className="muted small" role="status" data-testid="copy-curl-status">
          {copied}
        </p>
      )}
    </div>
  );
}
