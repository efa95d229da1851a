import {
  type BenchSummary,
  VALIDATION_FAMILY_LABELS,
  type ValidationFamily,
  type ValidationReport,
  type ValidationRow,
} from '@fieldline/contracts';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { ScrollRegion } from '../../../components/ScrollRegion.tsx';
import { BenchTables } from './BenchTables.tsx';
import { ConvergencePlot } from './ConvergencePlot.tsx';
import { BENCH_SUMMARIES, VALIDATION_REPORT } from './data.ts';
import { formatError, formatTolerance, formatUnknowns, formatValue } from './format.ts';
import { GeometrySketch } from './GeometrySketch.tsx';

const FAMILY_ORDER = Object.keys(VALIDATION_FAMILY_LABELS) as ValidationFamily[];

function CaseRow({ row }: { row: ValidationRow }) {
  const [open, setOpen] = useState(false);
  const detailsId = `validation-details-${row.id}`;
  return (
    <Fragment>
      <tr data-testid={`validation-${row.name}`} className={row.passed ? undefined : 'failed'}>
        <td>
          {/* the cell stays a table cell (its divider lines up with the row's); its content is the flex row */}
          <div className="case-cell">
            <GeometrySketch geometry={row.geometry} />
            <button
              type="button"
              className="link-button"
              aria-expanded={open}
              aria-controls={detailsId}
              onClick={() => setOpen(!open)}
            >
              {row.name}
            </button>
          </div>
        </td>
        <td>{row.quantity}</td>
        <td className="number">{formatValue(row.reference, row.unit)}</td>
        <td className="number">{formatValue(row.value, row.unit)}</td>
        <td className="number" data-testid="validation-error">
          {formatError(row.error, row.error_kind)}
          {!row.passed && <strong> — over tolerance</strong>}
        </td>
        <td className="number">{formatTolerance(row)}</td>
        <td>{row.order ?? '—'}</td>
        <td className="number">{formatUnknowns(row.unknowns)}</td>
        <td className="number">{row.seconds == null ? '—' : `${row.seconds.toFixed(1)} s`}</td>
      </tr>
      {open && (
        <tr id={detailsId} className="validation-details">
          <td colSpan={9}>
            <p>{row.description}</p>
            <p className="muted">
              Reference: {row.source}. Recorded by <code>{row.test}</code>.
            </p>
            {row.convergence && (
              <ConvergencePlot points={row.convergence} expectedOrder={row.expected_order} label={row.name} />
            )}
          </td>
        </tr>
      )}
    </Fragment>
  );
}

function FamilyTable({ family, rows }: { family: ValidationFamily; rows: ValidationRow[] }) {
  const passed = rows.filter((r) => r.passed).length;
  return (
    <section aria-labelledby={`validation-${family}`}>
      <h2 id={`validation-${family}`}>
        {VALIDATION_FAMILY_LABELS[family]}{' '}
        <span className="muted">
          ({passed} of {rows.length} within tolerance)
        </span>
      </h2>
      <ScrollRegion label={`${VALIDATION_FAMILY_LABELS[family]} validation cases`}>
        <table className="validation-table">
          <thead>
            <tr>
              <th scope="col">Case</th>
              <th scope="col">Quantity</th>
              <th scope="col">Reference</th>
              <th scope="col">Fieldline</th>
              <th scope="col">Error</th>
              <th scope="col">Tolerance</th>
              <th scope="col">Order</th>
              <th scope="col">Unknowns</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <CaseRow key={row.id} row={row} />
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}

/** /docs/validation: the engine's reference cases as the last test run recorded them, and the benches. */
export function ValidationContent({
  report = VALIDATION_REPORT,
  benches = BENCH_SUMMARIES,
}: {
  report?: ValidationReport;
  benches?: BenchSummary[];
}) {
  const generated = new Date(report.generated_at);
  return (
    <>
      <p className="lead">
        Every solver family is checked against problems with known answers — closed forms, published tables
        and series solutions. Each row below is one such case as the automated test suite last computed it:
        the reference and its source, Fieldline's value, the error and the tolerance the test enforces. A case
        over its tolerance, or a case that stops being computed, fails the build.
      </p>
      <p className="muted" data-testid="validation-provenance">
        Produced by the test run of commit <code>{report.commit ?? 'unknown'}</code> on{' '}
        {generated.toISOString().slice(0, 16).replace('T', ' ')} UTC ({report.machine.cpus ?? '?'} CPUs,{' '}
        {report.machine.platform}). {report.cases.length} cases. Select a case for its description and, where
        the test refines the mesh, its convergence plot. See also the <Link to="/docs">documentation</Link>.
      </p>
      {report.missing.length > 0 && <p role="alert">This run did not record: {report.missing.join(', ')}.</p>}
      {FAMILY_ORDER.map((family) => {
        const rows = report.cases.filter((r) => r.family === family);
        return rows.length ? <FamilyTable key={family} family={family} rows={rows} /> : null;
      })}
      <h2 id="benchmarks">Side by side with other solvers</h2>
      <p>
        Speed and memory against established open-source codes on the same problem, run on the same machine in
        the same session. Ratios are Fieldline over the peer; where Fieldline is behind, the table says so.
      </p>
      <BenchTables benches={benches} />
    </>
  );
}
