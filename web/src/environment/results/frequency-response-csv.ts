import { magnitudeDb, phaseDeg } from './s-parameters.ts';
import type { TransientResponse } from './transient-response.ts';

const snake = (s: string) => s.replace(/[^A-Za-z0-9]+/g, '_');

/**
 * CSV of a pulse run's frequency response: per S-parameter re, im, dB, degrees (the columns of the
 * server's S-parameter CSV), then each voltage source's input impedance in Ω.
 */
export function frequencyResponseCsv(response: TransientResponse): string {
  const s = response.sParameters?.series ?? [];
  const header = ['frequency_hz'];
  for (const p of s) header.push(...['re', 'im', 'db', 'deg'].map((part) => `${snake(p.name)}_${part}`));
  for (const z of response.inputImpedances)
    header.push(`Zin_${snake(z.label)}_re_ohm`, `Zin_${snake(z.label)}_im_ohm`);
  const lines = [header.join(',')];
  response.frequencies.forEach((f, i) => {
    const row: number[] = [f];
    for (const p of s) {
      const re = p.re[i] ?? 0;
      const im = p.im[i] ?? 0;
      row.push(re, im, magnitudeDb(re, im), phaseDeg(re, im));
    }
    for (const z of response.inputImpedances) row.push(z.re[i] ?? 0, z.im[i] ?? 0);
    lines.push(row.join(','));
  });
  return `${lines.join('\n')}\n`;
}
