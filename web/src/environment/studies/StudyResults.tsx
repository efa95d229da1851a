import type { StudyPoint, StudyResponse } from '@fieldline/contracts';
import { lazy, Suspense, useMemo, useState } from 'react';
import { lazyChart } from '../results/lazy-charts.tsx';

// Two viewer panes and their results: a chunk of their own, fetched when the user compares two points.
const ComparePoints = lazy(() =>
  import('./compare/ComparePoints.tsx').then((m) => ({ default: m.ComparePoints })),
);

// The line chart draws with the results' charts: their own chunk, fetched when a study's plot is shown
// (e2e/tests/bundle-budget.e2e.ts keeps them out of the environment's start).
const LineChart = lazyChart(() => import('../results/LineChart.tsx').then((m) => m.LineChart));

const fmt = (v: number | null | undefined) =>
  v === null || v === undefined
    ? '—'
    : Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0)
      ? v.toExponential(4)
      : String(Number(v.toPrecision(6)));

/** A finished or running study: sortable per-point table, a plot of an output against a swept setting. */
export function StudyResults(props: { study: StudyResponse; onOpen: (jobId: string) => void }) {
  const { study } = props;
  const paths = study.parameters.map((p) => p.path);
  const [sortBy, setSortBy] = useState<string>('point');
  const [descending, setDescending] = useState(false);
  const [plotOutput, setPlotOutput] = useState(study.outputs[0] ?? '');
  const [plotAgainst, setPlotAgainst] = useState(paths[0] ?? '');
  // the two points picked for Compare (in the order picked; a third pick drops the first)
  const [picked, setPicked] = useState<number[]>([]);
  const [comparing, setComparing] = useState<[StudyPoint, StudyPoint] | null>(null);
  const pickedPoints = picked
    .map((i) => study.points.find((p) => p.index === i && p.status === 'completed' && p.job_id))
    .filter((p): p is StudyPoint => p !== undefined);
  const togglePick = (index: number, on: boolean) =>
    setPicked((old) =>
      on ? [...old.filter((i) => i !== index), index].slice(-2) : old.filter((i) => i !== index),
    );
  const rows = useMemo(() => {
    const key = (p: StudyResponse['points'][number]) =>
      sortBy === 'point'
        ? p.index
        : sortBy === 'status'
          ? p.status
          : (p.parameters[sortBy] ?? p.outputs[sortBy] ?? null);
    return [...study.points].sort((a, b) => {
      const x = key(a);
      const y = key(b);
      const c = x === null ? 1 : y === null ? -1 : x < y ? -1 : x > y ? 1 : 0;
      return descending ? -c : c;
    });
  }, [study.points, sortBy, descending]);
  const header = (label: string, key: string) => (
    <th>
      <button
        type="button"
        className="link"
        data-testid={`study-sort-${key}`}
        onClick={() => {
          if (sortBy === key) setDescending(!descending);
          else {
            setSortBy(key);
            setDescending(false);
          }
        }}
      >
        {label}
        {sortBy === key ? (descending ? ' ▼' : ' ▲') : ''}
      </button>
    </th>
  );
  const others = paths.filter((p) => p !== plotAgainst);
  // One line per combination of the other swept settings.
  const series = useMemo(() => {
    const groups = new Map<string, { x: number; y: number }[]>();
    for (const p of study.points) {
      const x = p.parameters[plotAgainst];
      const y = p.outputs[plotOutput];
      if (x === undefined || y === null || y === undefined) continue;
      const name = others.map((o) => `${o} = ${fmt(p.parameters[o])}`).join(', ') || plotOutput;
      groups.set(name, [...(groups.get(name) ?? []), { x, y }]);
    }
    return [...groups.entries()].map(([name, pts]) => ({ name, pts: pts.sort((a, b) => a.x - b.x) }));
  }, [study.points, plotAgainst, plotOutput, others]);
  const xs = [...new Set(series.flatMap((s) => s.pts.map((p) => p.x)))].sort((a, b) => a - b);
  return (
    <div className="study-results" data-testid="study-results">
      <div className="row">
        <button
          type="button"
          data-testid="study-compare"
          disabled={pickedPoints.length !== 2}
          title="Tick two completed points in the table"
          onClick={() => setComparing(pickedPoints as [StudyPoint, StudyPoint])}
        >
          Compare{' '}
          {pickedPoints.length === 2
            ? `points ${pickedPoints[0]?.index} and ${pickedPoints[1]?.index}`
            : 'two points'}
        </button>
      </div>
      {comparing && (
        <Suspense fallback={<p className="muted">Loading the comparison…</p>}>
          <ComparePoints points={comparing} onClose={() => setComparing(null)} />
        </Suspense>
      )}
      <div className="table-scroll">
        <table className="data-table" data-testid="study-table">
          <thead>
            <tr>
              {header('#', 'point')}
              {paths.map((p) => header(p, p))}
              {study.remeshes && <th>tetrahedra</th>}
              {header('status', 'status')}
              {study.outputs.map((o) => header(o, o))}
              <th />
              <th>compare</th>
              {study.remeshes && <th title="the content hash of the mesh each point ran on">mesh</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.index} data-testid="study-row" data-status={p.status}>
                <td>{p.index}</td>
                {paths.map((path) => (
                  <td key={path}>{fmt(p.parameters[path])}</td>
                ))}
                {study.remeshes && (
                  <td data-testid="study-tetrahedra">{p.tetrahedra?.toLocaleString('en-US') ?? '—'}</td>
                )}
                <td title={p.error ?? undefined}>{p.status}</td>
                {study.outputs.map((o) => (
                  <td key={o} title={p.output_errors?.[o]}>
                    {fmt(p.outputs[o])}
                  </td>
                ))}
                <td>
                  {p.job_id && p.status === 'completed' && (
                    <button
                      type="button"
                      className="link"
                      data-testid="study-open-point"
                      onClick={() => props.onOpen(p.job_id as string)}
                    >
                      Open
                    </button>
                  )}
                </td>
                <td>
                  {p.job_id && p.status === 'completed' && (
                    <input
                      type="checkbox"
                      aria-label={`Compare point ${p.index}`}
                      data-testid="study-compare-pick"
                      data-point={p.index}
                      checked={picked.includes(p.index)}
                      onChange={(e) => togglePick(p.index, e.target.checked)}
                    />
                  )}
                </td>
                {study.remeshes && (
                  <td data-testid="study-mesh-hash" title={p.mesh_hash ?? undefined}>
                    <code>{p.mesh_hash?.slice(0, 8) ?? '—'}</code>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {study.outputs.length > 0 && paths.length > 0 && (
        <div className="study-plot">
          <div className="row">
            <label>
              Plot{' '}
              <select
                value={plotOutput}
                data-testid="study-plot-output"
                onChange={(e) => setPlotOutput(e.target.value)}
              >
                {study.outputs.map((o) => (
                  <option key={o}>{o}</option>
                ))}
              </select>
            </label>{' '}
            <label>
              against{' '}
              <select
                value={plotAgainst}
                data-testid="study-plot-against"
                onChange={(e) => setPlotAgainst(e.target.value)}
              >
                {paths.map((p) => (
                  <option key={p}>{p}</option>
                ))}
              </select>
            </label>
          </div>
          {xs.length > 1 && (
            <LineChart
              title={`${plotOutput} against ${plotAgainst}`}
              x={xs}
              xLabel={(x) => fmt(x)}
              series={series.map((s) => ({
                name: s.name,
                values: xs.map((x) => s.pts.find((p) => p.x === x)?.y ?? Number.NaN),
              }))}
            />
          )}
          {paths.length === 2 && <HeatMap study={props.study} output={plotOutput} />}
        </div>
      )}
    </div>
  );
}

/** Two swept settings: the output as a table coloured from its smallest to its largest value. */
function HeatMap(props: { study: StudyResponse; output: string }) {
  const [rowPath, colPath] = props.study.parameters.map((p) => p.path) as [string, string];
  const rowValues = [...new Set(props.study.points.map((p) => p.parameters[rowPath] as number))].sort(
    (a, b) => a - b,
  );
  const colValues = [...new Set(props.study.points.map((p) => p.parameters[colPath] as number))].sort(
    (a, b) => a - b,
  );
  const values = props.study.points
    .map((p) => p.outputs[props.output])
    .filter((v): v is number => typeof v === 'number');
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const cell = (r: number, c: number) =>
    props.study.points.find((p) => p.parameters[rowPath] === r && p.parameters[colPath] === c)?.outputs[
      props.output
    ] ?? null;
  return (
    <table className="data-table heat-map" data-testid="study-heat-map">
      <caption>
        {props.output}: {rowPath} (rows) × {colPath} (columns)
      </caption>
      <thead>
        <tr>
          <th />
          {colValues.map((c) => (
            <th key={c}>{fmt(c)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rowValues.map((r) => (
          <tr key={r}>
            <th>{fmt(r)}</th>
            {colValues.map((c) => {
              const v = cell(r, c);
              const t = v === null || hi === lo ? 0.5 : (v - lo) / (hi - lo);
              return (
                <td key={c} style={{ background: `hsl(${240 - 240 * t} 70% 35%)` }}>
                  {fmt(v)}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
