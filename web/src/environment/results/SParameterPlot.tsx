import { magnitudeDb, phaseDeg, type SParameterSet } from './s-parameters.ts';

const W = 300;
const H = 130;
const PAD = { l: 38, r: 8, t: 8, b: 18 };
const COLORS = ['#4493f8', '#f0883e', '#3fb950', '#db61a2', '#d29922', '#a371f7', '#56d4dd', '#f85149'];

function niceRange(values: number[], fallback: [number, number]): [number, number] {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return fallback;
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  if (hi - lo < 1e-9) {
    lo -= 1;
    hi += 1;
  }
  return [lo, hi];
}

function Chart(props: {
  title: string;
  x: number[];
  ys: { name: string; v: number[] }[];
  range?: [number, number];
  unit: string;
}) {
  const [x0, x1] = niceRange(props.x, [0, 1]);
  const [y0, y1] =
    props.range ??
    niceRange(
      props.ys.flatMap((s) => s.v),
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
              {t.toFixed(Math.abs(y1 - y0) < 10 ? 1 : 0)}
            </text>
          </g>
        ))}
        <text x={PAD.l} y={H - 4} className="tick">
          {(x0 / 1e9).toPrecision(3)} GHz
        </text>
        <text x={W - PAD.r} y={H - 4} textAnchor="end" className="tick">
          {(x1 / 1e9).toPrecision(3)} GHz
        </text>
        {props.ys.map((s, k) => (
          <polyline
            key={s.name}
            fill="none"
            stroke={COLORS[k % COLORS.length]}
            strokeWidth={1.5}
            points={s.v.map((y, i) => `${px(props.x[i] ?? 0).toFixed(1)},${py(y).toFixed(1)}`).join(' ')}
          />
        ))}
      </svg>
    </figure>
  );
}

/** |S| (dB) and phase (°) against frequency, one line per S-parameter. */
export function SParameterPlot({ data }: { data: SParameterSet }) {
  const mag = data.series.map((s) => ({
    name: s.name,
    v: s.re.map((re, i) => magnitudeDb(re, s.im[i] ?? 0)),
  }));
  const ph = data.series.map((s) => ({ name: s.name, v: s.re.map((re, i) => phaseDeg(re, s.im[i] ?? 0)) }));
  return (
    <div className="sparam-plot" data-testid="sparam-plot">
      <div className="legend">
        {data.series.map((s, k) => (
          <span key={s.name}>
            <i style={{ background: COLORS[k % COLORS.length] }} />
            {s.name}
          </span>
        ))}
      </div>
      <Chart title="|S| (dB)" x={data.frequencies} ys={mag} unit="dB" />
      <Chart title="Phase (°)" x={data.frequencies} ys={ph} range={[-180, 180]} unit="°" />
    </div>
  );
}
