import { Legend, LineChart } from '../../../results/LineChart.tsx';
import { formatSI } from '../../../results/quantities.ts';
import type { TransientResponse as Response } from '../../../results/transient-response.ts';
import { ghz, SParameterPlot } from './SParameterPlot.tsx';
import { SParameterTable } from './SParameterTable.tsx';

/** The pulse run's broadband response: S-parameters as the frequency domain shows them, and Z_in. */
export function TransientResponse({ response }: { response: Response }) {
  const { sParameters, inputImpedances, bandHz, drivenPort } = response;
  const impedanceSeries = inputImpedances.flatMap((z) => {
    const suffix = inputImpedances.length > 1 ? ` · ${z.label}` : '';
    return [
      { name: `Re Z${suffix}`, values: z.re },
      { name: `Im Z${suffix}`, values: z.im },
    ];
  });
  return (
    <div className="transient-response" data-testid="transient-response">
      <h3>Frequency response</h3>
      <p className="small muted">
        From the pulse
        {bandHz ? ` (band ${ghz(bandHz[0])} – ${ghz(bandHz[1])})` : ''}
        {drivenPort ? ` · column of driven port ${drivenPort}, modal normalization` : ''}
      </p>
      {response.portMismatch.length > 0 && (
        <p className="small" data-testid="port-mismatch">
          {response.portMismatch
            .map(
              (m) =>
                `Port ${m.portId} is matched at the carrier only: up to ${(m.maxReflection * 100).toFixed(1)} % reflection across the band`,
            )
            .join('; ')}
          .
        </p>
      )}
      {sParameters && (
        <>
          <SParameterPlot data={sParameters} />
          <SParameterTable data={sParameters} />
        </>
      )}
      {impedanceSeries.length > 0 && (
        <>
          <Legend names={impedanceSeries.map((s) => s.name)} />
          <LineChart
            title="Input impedance (Ω)"
            x={response.frequencies}
            series={impedanceSeries}
            xLabel={ghz}
          />
          <p className="small">
            {inputImpedances
              .filter((z) => z.referenceOhm !== null)
              .map((z) => `S11 of ${z.label} against its ${formatSI(z.referenceOhm as number, 'Ω')} source`)
              .join('; ')}
          </p>
        </>
      )}
    </div>
  );
}
