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

/**
 * Round tick values (1, 2 or 5 × 10^k apart) inside [lo, hi], at most `maxCount` intervals apart end to end: a frequency
 * axis from 8.2 to 12.4 GHz reads 9, 10, 11, 12 GHz rather than only its two ends.
 */
export function niceTicks(lo: number, hi: number, maxCount: number): number[] {
  if (!(Number.isFinite(lo) && Number.isFinite(hi)) || hi <= lo || maxCount < 1) return [];
  const raw = (hi - lo) / maxCount;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => (hi - lo) / s <= maxCount) ?? 10 * power;
  const ticks: number[] = [];
  // Index-based, so 0.1-steps do not accumulate rounding (and 0 stays exactly 0).
  for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k++) ticks.push(k * step + 0); // + 0: no −0
  return ticks;
}

const tickText = (v: number) =>
  Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-2 && v !== 0) ? v.toExponential(1) : String(+v.toPrecision(3));

/** A label near the chart's edge is anchored inwards so it is not clipped. */
function xAnchor(x: number): 'start' | 'middle' | 'end' {
  if (x < PAD.l + 20) return 'start';
  if (x > W - PAD.r - 20) return 'end';
  return 'middle';
}

/** A small SVG line chart (several series on one x axis), for the results panel. */
export function LineChart(props: {
  title: string;
  x: number[];
  series: { name: string; values: number[] }[];
  xLabel: (x: number) => string;
  yRange?: [number, number];
  /** the period of a wrapped quantity (360 for phase in degrees): its wraps are gaps, not lines */
  wrapPeriod?: number;
  /** y tick values (default: bottom, middle and top of the range) */
  yTicks?: number[];
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
  const ticks = props.yTicks ?? [y0, (y0 + y1) / 2, y1];
  const xTicks = niceTicks(x0, x1, 5);
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
        {xTicks.map((t) => (
          <g key={t} data-x-tick={t}>
            <line x1={px(t)} x2={px(t)} y1={PAD.t} y2={H - PAD.b} className="gridline" />
            <text x={px(t)} y={H - 4} textAnchor={xAnchor(px(t))} className="tick">
              {props.xLabel(t)}
            </text>
          </g>
        ))}
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
