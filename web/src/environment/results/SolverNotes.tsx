import { isRecord } from '../../api/http.ts';

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/**
 * The engine's warnings (solver_info.warnings: e.g. a config field this analysis left out) and, with the
 * Verbose flag, its step-by-step log (solver_info.log). `warningsListed`: a family's panel lists the warnings
 * among its own notes (an EM time-domain run's), so they are not repeated here.
 */
export function SolverNotes({ info, warningsListed = false }: { info: unknown; warningsListed?: boolean }) {
  if (!isRecord(info)) return null;
  const warnings = warningsListed ? [] : strings(info.warnings);
  const log = strings(info.log);
  if (warnings.length === 0 && log.length === 0) return null;
  return (
    <div className="solver-notes">
      {warnings.length > 0 && (
        <ul className="notes small" data-testid="solver-warnings">
          {warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      {log.length > 0 && (
        <details className="solver-log" data-testid="solver-log">
          <summary>Solver log ({log.length} lines)</summary>
          <pre className="small">{log.join('\n')}</pre>
        </details>
      )}
    </div>
  );
}
