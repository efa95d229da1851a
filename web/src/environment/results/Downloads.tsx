import { useState } from 'react';
import { isRecord } from '../../api/http.ts';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { frequencyResponseCsv } from './frequency-response-csv.ts';
import { harmonicResponse } from './harmonic-response.ts';
import { harmonicResponseCsv } from './harmonic-response-csv.ts';
import { jsonBlob, saveBlob } from './save-blob.ts';
import { timeSeriesCsv } from './time-series.ts';
import { transientResponse } from './transient-response.ts';
import { vertexFieldsCsv } from './vertex-csv.ts';
import { resultsToVtu } from './vtu-export.ts';

/**
 * Downloads: the results JSON and the S-parameter exports from the server (Touchstone, CSV), and the
 * exports built here from the results (VTU for ParaView, per-vertex CSV), which also work for a results
 * file loaded from disk. Time-domain results add their signals and their pulse-derived frequency
 * response as CSV, built here; a time-domain run with the full S-matrix (one pulse per port) has the
 * server's Touchstone/CSV exports like a frequency-domain sweep. A harmonic run adds its probes' frequency
 * response (amplitude and phase of displacement, velocity and acceleration) as CSV.
 */
export function Downloads() {
  const { deps } = useServices();
  const jobId = useEnv((s) => s.analysis.jobId);
  const raw = useEnv((s) => s.rawResults);
  const results = useEnv((s) => s.results);
  const [error, setError] = useState<string | null>(null);
  if (!raw || !results) return null;
  const active = results.active;
  const fromServer = async (format?: 'touchstone' | 'csv') => {
    if (!jobId) return;
    setError(null);
    try {
      const { blob, fileName } = await deps.api.download(jobId, format);
      saveBlob(blob, fileName ?? fallbackName(jobId, format));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const local = (make: () => string, type: string, fileName: string) => {
    setError(null);
    try {
      saveBlob(new Blob([make()], { type }), fileName);
    } catch (err) {
      setError(`Export failed: ${(err as Error).message}`);
    }
  };
  const serverJob = jobId !== undefined && !results.multiBody;
  const ports = results.sParameters ? Math.round(Math.sqrt(results.sParameters.series.length)) : 0;
  const fallbackName = (id: string, format?: 'touchstone' | 'csv') =>
    format === 'touchstone'
      ? `sparameters_${id}.s${ports}p`
      : format === 'csv'
        ? `sparameters_${id}.csv`
        : `fea_results_${id}.json`;
  const timeInfo = isRecord(active.time_domain_info) ? active.time_domain_info : null;
  const response = transientResponse(active);
  const harmonic = harmonicResponse(active);
  return (
    <div className="downloads" data-testid="downloads">
      <button
        type="button"
        onClick={() => (jobId ? void fromServer() : saveBlob(jsonBlob(raw), 'fea_results.json'))}
        data-testid="download-results-json"
      >
        Results JSON
      </button>
      {serverJob && results.sParameters && (
        <>
          <button
            type="button"
            onClick={() => void fromServer('touchstone')}
            data-testid="download-touchstone"
          >
            Touchstone (.s{ports}p)
          </button>
          <button type="button" onClick={() => void fromServer('csv')} data-testid="download-sparameter-csv">
            S-parameter CSV
          </button>
        </>
      )}
      <button
        type="button"
        data-testid="download-vtu"
        onClick={() => local(() => resultsToVtu(active), 'application/xml', 'fea_results.vtu')}
      >
        VTU (ParaView)
      </button>
      <button
        type="button"
        onClick={() => local(() => vertexFieldsCsv(active), 'text/csv', 'fea_vertex_fields.csv')}
      >
        Vertex fields CSV
      </button>
      {timeInfo && (
        <button
          type="button"
          data-testid="download-time-series"
          onClick={() => local(() => timeSeriesCsv(timeInfo), 'text/csv', 'fea_time_series.csv')}
        >
          Time series CSV
        </button>
      )}
      {response && (
        <button
          type="button"
          data-testid="download-frequency-response"
          onClick={() =>
            local(() => frequencyResponseCsv(response), 'text/csv', 'fea_frequency_response.csv')
          }
        >
          Frequency response CSV
        </button>
      )}
      {harmonic && (
        <button
          type="button"
          data-testid="download-harmonic-response"
          onClick={() => local(() => harmonicResponseCsv(harmonic), 'text/csv', 'fea_harmonic_response.csv')}
        >
          Harmonic response CSV
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
