import { isRecord } from '../../../../api/http.ts';
import { formatSI } from '../../../results/quantities.ts';

interface Flow {
  condition: string;
  kind: string;
  heat_flow_W: number;
}

/** Heat into the part through each condition (thermal results), and the energy balance they close. */
export function HeatFlows({ result }: { result: Record<string, unknown> }) {
  const q = isRecord(result.quantities) ? result.quantities : {};
  const flows = (Array.isArray(q.heat_flows) ? q.heat_flows : []).filter(
    (f): f is Flow => isRecord(f) && typeof f.condition === 'string' && typeof f.heat_flow_W === 'number',
  );
  if (flows.length === 0) return null;
  const balance = typeof q.energy_balance_error === 'number' ? q.energy_balance_error : null;
  return (
    <div className="heat-flows" data-testid="heat-flows">
      <h3>Heat flow into the part</h3>
      <table className="data">
        <thead>
          <tr>
            <th scope="col">Condition</th>
            <th scope="col">Kind</th>
            <th scope="col">Heat flow</th>
          </tr>
        </thead>
        <tbody>
          {flows.map((f) => (
            <tr key={f.condition} data-testid={`heat-flow-${f.condition}`}>
              <th scope="row">{f.condition}</th>
              <td>{f.kind}</td>
              <td>{formatSI(f.heat_flow_W, 'W')}</td>
            </tr>
          ))}
          {typeof q.source_power_W === 'number' && q.source_power_W !== 0 && (
            <tr>
              <th scope="row">Heat sources</th>
              <td>volume</td>
              <td>{formatSI(q.source_power_W, 'W')}</td>
            </tr>
          )}
        </tbody>
      </table>
      {balance !== null && (
        <p className="small muted">
          Energy balance (in = out + stored) closes to {balance.toExponential(1)} (relative).
        </p>
      )}
    </div>
  );
}
