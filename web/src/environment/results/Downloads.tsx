import { useEffect, useState } from 'react';
import { isRecord } from '../api/http.ts';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { jsonBlob, saveBlob } from './save-blob.ts';
import { vertexFieldsCsv } from './vertex-csv.ts';

interface ServerFile {
  name: string;
  bytes: number;
}

const KIND_LABELS: [RegExp, string][] = [
  [/\.s\d+p$/i, 'Touchstone'],
  [/\.vtu$/i, 'VTU (ParaView)'],
  [/\.csv$/i, 'CSV'],
  [/\.json$/i, 'JSON'],
];
const kindOf = (name: string) => KIND_LABELS.find(([re]) => re.test(name))?.[1] ?? 'File';
// job input, the results JSON (its own button) and the viewer's binary twin are not exports
const HIDDEN = new Set(['job.json', 'results.json', 'results.bin', 'stdout.log', 'stderr.log']);

/** Results JSON, and the exports the server produced for the job (Touchstone, VTU, CSV …). */
export function Downloads() {
  const { deps } = useServices();
  const jobId = useEnv((s) => s.analysis.jobId);
  const raw = useEnv((s) => s.rawResults);
  const active = useEnv((s) => s.results?.active);
  const [files, setFiles] = useState<ServerFile[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setFiles([]);
    if (!jobId) return;
    let live = true;
    deps.api
      .resultsInfo(jobId)
      .then((res) => {
        if (!live || !res.ok || !isRecord(res.json) || !Array.isArray(res.json.files)) return;
        setFiles(
          res.json.files.filter(
            (f): f is ServerFile =>
              isRecord(f) && typeof f.name === 'string' && !HIDDEN.has(f.name as string),
          ),
        );
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [jobId, deps.api]);

  const fromServer = async (file?: string) => {
    if (!jobId) return;
    setError(null);
    try {
      const blob = await deps.api.download(jobId, file);
      saveBlob(blob, file ?? `fea_results_${jobId}.json`);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  if (!raw) return null;
  return (
    <div className="downloads" data-testid="downloads">
      <button
        type="button"
        onClick={() => (jobId ? void fromServer() : saveBlob(jsonBlob(raw), 'fea_results.json'))}
        data-testid="download-results-json"
      >
        Results JSON
      </button>
      {files.map((f) => (
        <button
          type="button"
          key={f.name}
          onClick={() => void fromServer(f.name)}
          title={`${f.name} · ${(f.bytes / 1024).toFixed(0)} KiB`}
        >
          {kindOf(f.name)} <span className="muted small">{f.name}</span>
        </button>
      ))}
      {active && (
        <button
          type="button"
          onClick={() =>
            saveBlob(new Blob([vertexFieldsCsv(active)], { type: 'text/csv' }), 'fea_vertex_fields.csv')
          }
        >
          Vertex fields CSV
        </button>
      )}
      {error && (
        <p className="hint bad" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
