/**
 * A strict Touchstone 1.1 reader for tests (Touchstone File Format Specification, rev. 1.1):
 * comments start with '!', one option line '# <unit> <param> <format> R <n>' before the data,
 * frequencies strictly increasing, n² pairs per frequency (2-ports in the order 11 21 12 22,
 * other sizes row by row with at most four pairs per line). Anything else throws.
 */
export interface TouchstoneNetwork {
  ports: number;
  unit: string;
  parameter: string;
  format: string;
  referenceOhm: number;
  frequenciesHz: number[];
  /** s[k][row][col] as [re, im] */
  s: [number, number][][][];
}

const UNIT_SCALE: Record<string, number> = { HZ: 1, KHZ: 1e3, MHZ: 1e6, GHZ: 1e9 };

export function parseTouchstone(text: string, fileName: string): TouchstoneNetwork {
  const match = /\.s(\d+)p$/i.exec(fileName);
  if (!match) throw new Error(`not a Touchstone file name: ${fileName}`);
  const n = Number(match[1]);
  let option: string[] | null = null;
  const numbers: number[] = [];
  const lineStarts: boolean[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.split('!')[0]?.trim() ?? '';
    if (line === '') continue;
    if (line.startsWith('#')) {
      if (option) throw new Error('second option line');
      if (numbers.length > 0) throw new Error('option line after data');
      option = line.slice(1).trim().toUpperCase().split(/\s+/);
      continue;
    }
    if (!option) throw new Error('data before the option line');
    const fields = line.split(/\s+/).map((f) => {
      if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(f)) throw new Error(`not a number: ${f}`);
      return Number(f);
    });
    fields.forEach((v, i) => {
      numbers.push(v);
      lineStarts.push(i === 0);
    });
  }
  if (!option) throw new Error('no option line');
  const [unit = 'GHZ', parameter = 'S', format = 'MA', rKey, rValue] = option;
  if (!(unit in UNIT_SCALE)) throw new Error(`bad unit ${unit}`);
  if (!['S', 'Y', 'Z', 'H', 'G'].includes(parameter)) throw new Error(`bad parameter ${parameter}`);
  if (!['MA', 'DB', 'RI'].includes(format)) throw new Error(`bad format ${format}`);
  if (rKey !== 'R' || rValue === undefined || !(Number(rValue) > 0))
    throw new Error('bad reference impedance');
  const perPoint = 1 + 2 * n * n;
  if (numbers.length % perPoint !== 0)
    throw new Error(`data count ${numbers.length} is not a multiple of ${perPoint}`);
  const frequenciesHz: number[] = [];
  const s: [number, number][][][] = [];
  for (let at = 0; at < numbers.length; at += perPoint) {
    if (!lineStarts[at]) throw new Error('a frequency must start a line');
    const f = (numbers[at] as number) * (UNIT_SCALE[unit] as number);
    if (frequenciesHz.length > 0 && f <= (frequenciesHz[frequenciesHz.length - 1] as number)) {
      throw new Error('frequencies must increase');
    }
    frequenciesHz.push(f);
    const pairs: [number, number][] = [];
    for (let i = 0; i < n * n; i++) {
      const a = numbers[at + 1 + 2 * i] as number;
      const b = numbers[at + 2 + 2 * i] as number;
      if (format === 'RI') pairs.push([a, b]);
      else {
        const mag = format === 'DB' ? 10 ** (a / 20) : a;
        pairs.push([mag * Math.cos((b * Math.PI) / 180), mag * Math.sin((b * Math.PI) / 180)]);
      }
    }
    const matrix: [number, number][][] = [];
    for (let r = 0; r < n; r++) {
      const row: [number, number][] = [];
      for (let c = 0; c < n; c++) {
        // Touchstone 1.1: 2-port data are ordered N11 N21 N12 N22 (column-major); others row-major.
        const idx = n === 2 ? c * 2 + r : r * n + c;
        row.push(pairs[idx] as [number, number]);
      }
      matrix.push(row);
    }
    s.push(matrix);
  }
  return { ports: n, unit, parameter, format, referenceOhm: Number(rValue), frequenciesHz, s };
}
