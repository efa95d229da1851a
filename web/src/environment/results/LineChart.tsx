const W = 300;
const H = 130;
const PAD = { l: 40, r: 8, t: 8, b: 18 };
export const SERIES_COLORS = [
  '#4493f8',
  '#f0883e',
  '#3fb950',
  '#db61a2',
  '#d29922',
  '#a371f7',
  '#56d4dd',
  '#f85149',
];

function range(values: number[], fallback: [number, number]): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) return fallback;
  // A flat line gets a band around it; relative to its size, so tiny quantities (energies in J) still plot.
  const scale = Math.max(Math.abs(lo), Math.abs(hi));
  if (hi - lo <= 1e-12 * scale || scale === 0) {
    const pad = scale > 0 ? scale / 2 : 1;
    return [lo - pad, hi + pad];
  }
  return [lo, hi];
}

/**
 * Runs of points to draw as one line: a wrapped quantity (phase in degrees, period 360) is split where it
 * jumps by more than half a period, so the wrap is not drawn as a line across the whole chart.
 */
export function segments(values: number[], wrapPeriod?: number): number[][] {
  const runs: number[][] = [];
  let run: number[] = [];
  values.forEach((v, i) => {
    const prev = values[i - 1];
    if (wrapPeriod && prev !== undefined && Math.abs(v - prev) > wrapPeriod / 2 && run.length) {
      runs.push(run);
      run = [];
    }
    run.push(i);
  });
  if (run.length) runs.push(run);
  return runs;
}

const tickText = (v: number) =>
  Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-2 && v !== 0) ? v.toExponential(1) : String(+v.toPrecision(3));

/** A small SVG line chart (several series on one x axis), for the results panel. */
export function LineChart(props: {
  title: string;
  x: number[];
  series: { name: string; values: number[] }[];
  xLabel: (x: number) => string;
  yRange?: [number, number];
  /** the period of a wrapped quantity (360 for phase in degrees): its wraps are gaps, not lines */
  wrapPeriod?: number;
}) {
  const [x0, x1] = range(props.x, [0, 1]);
  const [y0, y1] =
    props.yRange ??
    range(
      props.series.flatMap((s) => s.values),
      [0, 1],
    );
  const px = (x: number) => PAD.l + ((x - x0) / (x1 - x0 || 1)) * (W - PAD.l - PAD.r);
  const py = (y: number) => PAD.t + (1 - (y - y0) / (y1 - y0 || 1)) * (H - PAD.t - PAD.b);
  const ticks = [y0, (y0 + y1) / 2, y1];
  return (
    <figure className="chart">
      <figcaption>{props.title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.title}>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.l} x2={W - PAD.r} y1={py(t)} y2={py(t)} className="gridline" />
            <text x={PAD.l - 4} y={py(t) + 3} textAnchor="end" className="tick">
              {tickText(t)}
            </text>
          </g>
        ))}
        <text x={PAD.l} y={H - 4} className="tick">
          {props.xLabel(x0)}
        </text>
        <text x={W - PAD.r} y={H - 4} textAnchor="end" className="tick">
          {props.xLabel(x1)}
        </text>
        {props.series.map((s, k) => (
          <g key={s.name} data-series={s.name}>
            {segments(s.values, props.wrapPeriod).map((run) => (
              <polyline
                key={run[0]}
                fill="none"
                stroke={SERIES_COLORS[k % SERIES_COLORS.length]}
                strokeWidth={1.5}
                points={run
                  .map((i) => `${px(props.x[i] ?? 0).toFixed(1)},${py(s.values[i] ?? 0).toFixed(1)}`)
                  .join(' ')}
              />
            ))}
          </g>
        ))}
      </svg>
    </figure>
  );
}

export function Legend({ names }: { names: string[] }) {
  return (
    <div className="legend">
      {names.map((name, k) => (
        <span key={name}>
          <i style={{ background: SERIES_COLORS[k % SERIES_COLORS.length] }} />
          {name}
        </span>
      ))}
    </div>
  );
}
