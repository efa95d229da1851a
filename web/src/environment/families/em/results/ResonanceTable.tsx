import { ScrollRegion } from '../../../../components/ScrollRegion.tsx';
import { formatSI } from '../../../results/quantities.ts';
import type { Resonances } from './resonances.ts';

const hz = (f: number) => formatSI(f, 'Hz', 5);

/**
 * Ringing frequencies at the probes after the pulse: the frequency with the time scheme's warping undone,
 * the frequency as recorded, and which correction was applied (BDF2 has none: its rows read "not corrected").
 */
export function ResonanceTable({ data }: { data: Resonances }) {
  return (
    <div className="resonances" data-testid="resonances">
      <h4>Resonances at the probes</h4>
      <p className="small muted">
        Ringing after the pulse
        {data.listenFromS !== null ? ` (from ${formatSI(data.listenFromS, 's', 3)})` : ''}, strongest first.{' '}
        {data.corrected
          ? `Corrected for the time step: ${data.rule ?? data.correction}.`
          : `Not corrected for the time step (no closed form for the ${data.scheme || 'time'} scheme): frequencies as recorded.`}
      </p>
      <ScrollRegion label={'Resonances'}>
        <table className="grid">
          <thead>
            <tr>
              <th>Probe</th>
              <th>Frequency</th>
              <th>Recorded</th>
              <th>Correction</th>
            </tr>
          </thead>
          <tbody>
            {data.probes.flatMap((p) => {
              const name = p.component ? `${p.probe} (E${p.component})` : p.probe;
              if (p.peaks.length === 0)
                return [
                  <tr key={p.probe}>
                    <td>{name}</td>
                    <td colSpan={3} className="muted">
                      no peak in the band
                    </td>
                  </tr>,
                ];
              return p.peaks.map((peak, i) => (
                <tr key={`${p.probe}-${peak.recordedHz}`}>
                  <td>{i === 0 ? name : ''}</td>
                  <td>{hz(peak.frequencyHz)}</td>
                  <td>{hz(peak.recordedHz)}</td>
                  <td>{data.correction}</td>
                </tr>
              ));
            })}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}
