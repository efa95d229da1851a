import { useEffect, useState } from 'react';
import { jsonBlob, saveBlob } from '../results/save-blob.ts';
import { JsonNode } from './JsonTree.tsx';

export const RAW_JSON_FILE_NAME = 'fea_results_raw.json';

/** Raw JSON drawer: Copy, Download (fea_results_raw.json), close; Escape closes it (spec 001 §2). */
export function RawJsonDrawer(props: { data: unknown; onClose: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') props.onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [props.onClose]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(props.data, null, 2));
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Copying failed: the browser refused clipboard access. Use Download instead.');
    }
  };
  return (
    <div className="drawer" role="dialog" aria-label="Raw JSON" data-testid="raw-json-drawer">
      <header className="drawer-head">
        <h2>Raw JSON</h2>
        <div className="actions">
          <button type="button" onClick={() => void copy()}>
            Copy
          </button>
          <button
            type="button"
            data-testid="raw-json-download"
            onClick={() => saveBlob(jsonBlob(props.data), RAW_JSON_FILE_NAME)}
          >
            Download
          </button>
          <button type="button" aria-label="Close" data-testid="raw-json-close" onClick={props.onClose}>
            ✕
          </button>
        </div>
      </header>
      {copied && <p className="muted small drawer-note">{copied}</p>}
      <div className="drawer-body mono">
        <JsonNode name="results" value={props.data} />
      </div>
    </div>
  );
}
