import { useEffect, useState } from 'react';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';

/** Debug: viewer connection, the recent protocol messages, job ids, reload of the viewer page. */
export function DebugControls() {
  const { bridge } = useServices();
  const meshingJob = useEnv((s) => s.meshing.jobId);
  const analysisJob = useEnv((s) => s.analysis.jobId);
  const [ready, setReady] = useState(bridge.isReady());
  const [, setTick] = useState(0);
  useEffect(() => bridge.onReadyChange(setReady), [bridge]);
  useEffect(() => bridge.onMessage(() => setTick((t) => t + 1)), [bridge]);
  const recent = bridge.log.slice(-12).reverse();
  return (
    <div className="debug" data-testid="debug-controls">
      <table className="kv">
        <tbody>
          <tr>
            <th>Viewer</th>
            <td data-testid="viewer-state">{ready ? 'ready' : 'waiting for viewer-ready'}</td>
          </tr>
          <tr>
            <th>Meshing job</th>
            <td className="mono">{meshingJob ?? '—'}</td>
          </tr>
          <tr>
            <th>Analysis job</th>
            <td className="mono">{analysisJob ?? '—'}</td>
          </tr>
        </tbody>
      </table>
      <div className="actions">
        <button type="button" onClick={() => bridge.reload()}>
          Reload viewer
        </button>
        <button type="button" onClick={() => setTick((t) => t + 1)}>
          Refresh log
        </button>
      </div>
      {/* focusable: the log scrolls, and a keyboard user must be able to scroll it */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: see above */}
      <ol className="bridge-log mono" aria-label="Viewer message log" tabIndex={0}>
        {recent.map((e) => (
          <li key={`${e.at}-${e.type}-${e.direction}`} className={e.direction}>
            {e.direction === 'in' ? '←' : e.direction === 'out' ? '→' : '✕'} {e.type}
            {e.detail ? ` (${e.detail})` : ''}
          </li>
        ))}
      </ol>
    </div>
  );
}
