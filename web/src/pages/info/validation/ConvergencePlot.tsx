import type { ConvergencePoint } from '@fieldline/contracts';

const W = 280;
const H = 170;
const PAD = { l: 46, r: 10, t: 10, b: 34 };

function decades(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let k = Math.floor(lo); k <= Math.ceil(hi); k++) out.push(k);
  return out;
}

/**
 * Error against unknowns on log–log axes, with the slope the element order predicts drawn through the
 * first point: in 3D, h ∝ N^(−1/3), so an error O(h^q) falls as N^(−q/3).
 */
export function ConvergencePlot({
  points,
  expectedOrder,
  label,
}: {
  points: ConvergencePoint[];
  expectedOrder: number | null;
  label: string;
}) {
  const usable = points.filter((p) => p.unknowns > 0 && p.error > 0);
  if (usable.length < 2) return null;
  const lx = usable.map((p) => Math.log10(p.unknowns));
  const ly = usable.map((p) => Math.log10(p.error));
  const first = usable[0] as ConvergencePoint;
  const slope = expectedOrder == null ? null : -expectedOrder / 3;
  const lastX = Math.max(...lx);
  const expectedEnd =
    slope == null ? null : Math.log10(first.error) + slope * (lastX - Math.log10(first.unknowns));
  const xLo = Math.floor(Math.min(...lx) * 2) / 2;
  const xHi = Math.ceil(lastX * 2) / 2;
  const yAll = expectedEnd == null ? ly : [...ly, expectedEnd];
  const yLo = Math.floor(Math.min(...yAll));
  const yHi = Math.ceil(Math.max(...yAll));
  const x = (v: number) => PAD.l + ((v - xLo) / (xHi - xLo || 1)) * (W - PAD.l - PAD.r);
  const y = (v: number) => PAD.t + ((yHi - v) / (yHi - yLo || 1)) * (H - PAD.t - PAD.b);
  const measured = usable.map((_, i) => `${x(lx[i] as number)},${y(ly[i] as number)}`).join(' ');
  return (
    <figure className="convergence-plot">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`${label}: error against unknowns, log–log`}
        data-testid="convergence-plot"
      >
        {decades(yLo, yHi).map((k) => (
          <g key={`y${k}`}>
            <line x1={PAD.l} x2={W - PAD.r} y1={y(k)} y2={y(k)} className="grid" />
            <text x={PAD.l - 4} y={y(k) + 4} textAnchor="end">{`1e${k}`}</text>
          </g>
        ))}
        {decades(xLo, xHi)
          .filter((k) => k >= xLo && k <= xHi)
          .map((k) => (
            <text key={`x${k}`} x={x(k)} y={H - PAD.b + 14} textAnchor="middle">{`1e${k}`}</text>
          ))}
        <text x={(PAD.l + W - PAD.r) / 2} y={H - 4} textAnchor="middle">
          unknowns
        </text>
        {slope != null && expectedEnd != null && (
          <line
            x1={x(Math.log10(first.unknowns))}
            y1={y(Math.log10(first.error))}
            x2={x(lastX)}
            y2={y(expectedEnd)}
            className="expected"
          />
        )}
        <polyline points={measured} className="measured" />
        {usable.map((p, i) => (
          <circle
            key={p.unknowns}
            cx={x(lx[i] as number)}
            cy={y(ly[i] as number)}
            r={3}
            className="measured"
          />
        ))}
      </svg>
      <figcaption>
        Measured error (solid)
        {slope != null ? `; dashed: the expected order ${expectedOrder}, slope N^(−${expectedOrder}/3)` : ''}
      </figcaption>
    </figure>
  );
}
