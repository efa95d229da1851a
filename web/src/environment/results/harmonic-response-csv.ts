import type { ComplexSeries, HarmonicResponseData } from './harmonic-response.ts';

const snake = (s: string) => s.replace(/[^A-Za-z0-9]+/g, '_');

const QUANTITIES = [
  ['u', 'displacement', 'm'],
  ['v', 'velocity', 'm_s'],
  ['a', 'acceleration', 'm_s2'],
] as const;

/**
 * CSV of a harmonic run: one row per frequency; per probe and per quantity (displacement, velocity,
 * acceleration) each component's amplitude (SI, unit in the column name) and phase in degrees.
 */
export function harmonicResponseCsv(data: HarmonicResponseData): string {
  const header = ['frequency_hz'];
  const columns: { values: ComplexSeries; component: number }[] = [];
  for (const probe of data.probes) {
    for (const [symbol, key, unit] of QUANTITIES) {
      const values = probe[key];
      if (!values) continue;
      ['x', 'y', 'z'].forEach((axis, component) => {
        const name = `${snake(probe.name)}_${symbol}${axis}`;
        header.push(`${name}_amp_${unit}`, `${name}_phase_deg`);
        columns.push({ values, component });
      });
    }
  }
  const lines = [header.join(',')];
  data.frequencies.forEach((f, i) => {
    const row: number[] = [f];
    for (const { values, component } of columns)
      row.push(values.amplitude[i]?.[component] ?? Number.NaN, values.phaseDeg[i]?.[component] ?? Number.NaN);
    lines.push(row.join(','));
  });
  return `${lines.join('\n')}\n`;
}
