import type { ConvergenceReport } from '@fieldline/contracts';

const fmt = (v: number | null | undefined, digits = 6) =>
  v === null || v === undefined ? '—' : String(Number(v.toPrecision(digits)));

/**
 * A convergence study's outcome: the finest value with its estimated error (Roache's GCI over a Richardson
 * extrapolation when three meshes allow it, else the last change), the extrapolated value and the observed
 * order. The per-mesh values are the study's table.
 */
export function ConvergenceReportView({ report }: { report: ConvergenceReport }) {
  const relative =
    report.value && report.error_estimate !== null ? Math.abs(report.error_estimate / report.value) : null;
  return (
    <div className="study-convergence" data-testid="study-convergence">
      <p data-testid="study-convergence-verdict">
        <strong>{report.converged ? 'Converged' : 'Not converged'}</strong>: {report.output} ={' '}
        <span data-testid="study-convergence-value">{fmt(report.value)}</span> ±{' '}
        <span data-testid="study-convergence-error">{fmt(report.error_estimate, 3)}</span>
        {relative !== null ? ` (${fmt(100 * relative, 2)} %)` : ''}
      </p>
      <table className="data-table">
        <tbody>
          <tr>
            <th>Richardson extrapolation</th>
            <td data-testid="study-convergence-extrapolated">{fmt(report.extrapolated)}</td>
          </tr>
          <tr>
            <th>Observed order</th>
            <td>{fmt(report.observed_order, 3)}</td>
          </tr>
          <tr>
            <th>Safety factor (GCI)</th>
            <td>{fmt(report.safety_factor, 3)}</td>
          </tr>
          <tr>
            <th>Last change between meshes</th>
            <td>{report.last_change === null ? '—' : `${fmt(100 * report.last_change, 3)} %`}</td>
          </tr>
          <tr>
            <th>Tolerance</th>
            <td>{fmt(100 * report.tolerance, 3)} %</td>
          </tr>
        </tbody>
      </table>
      <p className="muted small">{report.message}</p>
    </div>
  );
}
