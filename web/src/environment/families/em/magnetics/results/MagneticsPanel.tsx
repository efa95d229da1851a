import { isRecord } from '../../../../../api/http.ts';
import type { ProcessedResults } from '../../../../results/process-results.ts';
import { formatSI } from '../../../../results/quantities.ts';

type Vec = [number, number, number];
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const numberMap = (v: unknown): Record<string, number> =>
  isRecord(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, number] => num(e[1]))) : {};

/** The inductance matrix (H) by coil name, symmetric; coils in the engine's order. */
function matrixOf(v: unknown): { names: string[]; at: (i: string, j: string) => number | undefined } | null {
  if (!isRecord(v)) return null;
  const names = Object.keys(v).filter((k) => isRecord(v[k]));
  if (names.length === 0) return null;
  return { names, at: (i, j) => numberMap(v[i])[j] };
}

/**
 * The numbers a magnetic design is made with (docs/magnetics.md §5, §7): the inductance matrix with the
 * coupling coefficients, each coil's flux linkage, forces and torques per body, and with eddy currents the
 * losses per body and each coil's or conductor's resistance and reactance at the frequency.
 */
export function MagneticsPanel({
  result,
  results,
}: {
  result: Record<string, unknown>;
  results: ProcessedResults;
}) {
  const q = isRecord(result.quantities) ? result.quantities : {};
  const matrix = matrixOf(q.inductance_matrix_H);
  const forces = Object.entries(isRecord(q.force_N) ? q.force_N : {}).filter(
    (e): e is [string, Vec] => Array.isArray(e[1]) && e[1].length === 3 && e[1].every(num),
  );
  const torques = numberMap(q.torque_Nm);
  const losses = numberMap(q.loss_W);
  const resistance = numberMap(q.resistance_ohm);
  const reactance = numberMap(q.reactance_ohm);
  const flux = numberMap(q.flux_linkage_Wb);
  const info = isRecord(result.solver_info) ? result.solver_info : {};
  const configured = results.analysisConfig?.frequency;
  const frequency = num(info.frequency)
    ? info.frequency
    : num(configured) && configured > 0
      ? configured
      : undefined;
  const impedanceNames = Object.keys(resistance).filter((n) => n in reactance);
  // a magnetostatic run's solid conductors: a DC resistance and an I²R loss (docs/magnetics.md §3)
  const dc = info.analysis === 'magnetostatic';
  const dcNames = Object.keys(resistance).filter((n) => !(n in reactance));
  if (!matrix && forces.length === 0 && Object.keys(losses).length === 0 && impedanceNames.length === 0)
    return null;
  return (
    <div className="magnetics-results" data-testid="magnetics-results">
      {matrix && (
        <>
          <h3>{matrix.names.length === 1 ? 'Inductance' : 'Inductance matrix'}</h3>
          <table className="data" data-testid="inductance-matrix">
            <thead>
              <tr>
                <th scope="col">Coil</th>
                {matrix.names.map((n) => (
                  <th scope="col" key={n}>
                    {n}
                  </th>
                ))}
                {Object.keys(flux).length > 0 && <th scope="col">Flux linkage</th>}
              </tr>
            </thead>
            <tbody>
              {matrix.names.map((i) => (
                <tr key={i} data-testid={`inductance-row-${i}`}>
                  <th scope="row">{i}</th>
                  {matrix.names.map((j) => {
                    const l = matrix.at(i, j);
                    return <td key={j}>{l === undefined ? '–' : formatSI(l, 'H')}</td>;
                  })}
                  {Object.keys(flux).length > 0 && <td>{num(flux[i]) ? formatSI(flux[i], 'Wb') : '–'}</td>}
                </tr>
              ))}
            </tbody>
          </table>
          {matrix.names.length > 1 && <Coupling names={matrix.names} at={matrix.at} />}
        </>
      )}
      {forces.length > 0 && (
        <>
          <h3>Force and torque</h3>
          <table className="data" data-testid="magnetic-forces">
            <thead>
              <tr>
                <th scope="col">Body</th>
                <th scope="col">Fx, Fy, Fz</th>
                <th scope="col">|F|</th>
                {Object.keys(torques).length > 0 && <th scope="col">Torque</th>}
              </tr>
            </thead>
            <tbody>
              {forces.map(([name, f]) => (
                <tr key={name} data-testid={`magnetic-force-${name}`}>
                  <th scope="row">{name}</th>
                  <td>{f.map((c) => formatSI(c, 'N', 3)).join(', ')}</td>
                  <td>{formatSI(Math.hypot(...f), 'N')}</td>
                  {Object.keys(torques).length > 0 && (
                    <td>{num(torques[name]) ? formatSI(torques[name], 'N·m') : '–'}</td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {Object.keys(losses).length > 0 && (
        <>
          <h3>{dc ? 'Losses (DC, I²R)' : 'Losses (time average)'}</h3>
          <table className="data" data-testid="magnetic-losses">
            <tbody>
              {Object.entries(losses).map(([name, p]) => (
                <tr key={name} data-testid={`loss-${name}`}>
                  <th scope="row">{name}</th>
                  <td>{formatSI(p, 'W')}</td>
                </tr>
              ))}
              {num(q.total_loss_W) && (
                <tr>
                  <th scope="row">Total</th>
                  <td>{formatSI(q.total_loss_W, 'W')}</td>
                </tr>
              )}
            </tbody>
          </table>
        </>
      )}
      {dcNames.length > 0 && (
        <>
          <h3>DC resistance</h3>
          <table className="data" data-testid="magnetic-dc-resistance">
            <tbody>
              {dcNames.map((n) => (
                <tr key={n} data-testid={`dc-resistance-${n}`}>
                  <th scope="row">{n}</th>
                  <td>{formatSI(resistance[n] as number, 'Ω')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {impedanceNames.length > 0 && (
        <>
          <h3>Impedance{frequency ? ` at ${formatSI(frequency, 'Hz')}` : ''}</h3>
          <table className="data" data-testid="magnetic-impedance">
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">R</th>
                <th scope="col">X</th>
                {frequency && <th scope="col">L = X/ω</th>}
              </tr>
            </thead>
            <tbody>
              {impedanceNames.map((n) => (
                <tr key={n} data-testid={`impedance-${n}`}>
                  <th scope="row">{n}</th>
                  <td>{formatSI(resistance[n] as number, 'Ω')}</td>
                  <td>{formatSI(reactance[n] as number, 'Ω')}</td>
                  {frequency && (
                    <td>{formatSI((reactance[n] as number) / (2 * Math.PI * frequency), 'H')}</td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}

/** k_ij = L_ij / √(L_ii L_jj) for every pair of coils. */
function Coupling({ names, at }: { names: string[]; at: (i: string, j: string) => number | undefined }) {
  const pairs = names.flatMap((i, a) => names.slice(a + 1).map((j) => [i, j] as const));
  return (
    <ul className="coupling" data-testid="coupling">
      {pairs.map(([i, j]) => {
        const [m, li, lj] = [at(i, j), at(i, i), at(j, j)];
        const k = m !== undefined && li && lj ? m / Math.sqrt(li * lj) : undefined;
        return (
          <li key={`${i}-${j}`}>
            Coupling {i}–{j}: k = {k === undefined ? '–' : k.toFixed(4)}
          </li>
        );
      })}
    </ul>
  );
}
