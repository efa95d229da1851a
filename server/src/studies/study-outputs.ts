import { type AnalysisType, STUDY_OUTPUTS } from '@fieldline/contracts';
import { HttpError } from '../http/errors.ts';

/** The parts of a results file a study reads (results-summary.ts extracts them off the event loop). */
export interface ResultsSummary {
  quantities: Record<string, unknown>;
  /** natural or cavity frequencies (Hz), lowest first, rigid-body modes left out */
  frequencies: number[];
  sParameters: { frequencies: number[]; matrix: number[][][][]; portIds: number[] } | null;
  tetrahedra: number | null;
}

const FREQUENCY = /^frequencies\[(\d+)\]$/;
// |S21|@10e9, dB(S21)@1e9, phase(S21)@1e9; ports above 9 as S12,3.
const S_PARAMETER =
  /^(\|S(\d+(?:,\d+)?)\||dB\(S(\d+(?:,\d+)?)\)|phase\(S(\d+(?:,\d+)?)\))@([0-9.]+(?:[eE][+-]?\d+)?)$/;

type Parsed =
  | { kind: 'quantity'; path: string[] }
  | { kind: 'frequency'; index: number }
  | { kind: 's'; form: 'mag' | 'db' | 'phase'; out: number; in: number; frequency: number };

function parseOutput(name: string): Parsed | null {
  const f = FREQUENCY.exec(name);
  if (f) return { kind: 'frequency', index: Number(f[1]) };
  const s = S_PARAMETER.exec(name);
  if (s) {
    const ports = (s[2] ?? s[3] ?? s[4] ?? '').split(',');
    const [out, inp] = ports.length === 2 ? ports.map(Number) : [...(ports[0] ?? '')].map(Number);
    const form = name.startsWith('|') ? 'mag' : name.startsWith('dB') ? 'db' : 'phase';
    const frequency = Number(s[5]);
    if (out && inp && Number.isFinite(frequency)) return { kind: 's', form, out, in: inp, frequency };
    return null;
  }
  return { kind: 'quantity', path: name.split('.') };
}

/** The outputs an analysis type produces, as the 400 lists them. */
export function outputsOf(analysisType: string): string[] {
  const c = STUDY_OUTPUTS[analysisType as AnalysisType];
  if (!c) return [];
  return [
    ...c.quantities,
    ...(c.frequencies ? ['frequencies[i]'] : []),
    ...(c.sParameters ? ['|Sij|@f', 'dB(Sij)@f', 'phase(Sij)@f'] : []),
  ];
}

/** 400 for an output the analysis does not produce, listing what it does. */
export function checkOutputs(analysisType: string, outputs: string[]): void {
  const c = STUDY_OUTPUTS[analysisType as AnalysisType];
  for (const name of outputs) {
    const parsed = parseOutput(name);
    const known =
      c &&
      parsed &&
      ((parsed.kind === 'quantity' && c.quantities.includes(name)) ||
        (parsed.kind === 'frequency' && c.frequencies) ||
        (parsed.kind === 's' && c.sParameters));
    if (!known) {
      const list = outputsOf(analysisType);
      throw new HttpError(
        400,
        'unknown_output',
        list.length > 0
          ? `Unknown output '${name}': a ${analysisType} analysis produces ${list.join(', ')}.`
          : `Unknown output '${name}': a ${analysisType} run produces no outputs a study can collect.`,
        { output: name, available: list },
      );
    }
  }
  if (new Set(outputs).size !== outputs.length)
    throw new HttpError(400, 'unknown_output', 'An output is named twice.', {
      available: outputsOf(analysisType),
    });
}

/** One output's value from a point's results, or why it is not there. */
export function outputValue(summary: ResultsSummary, name: string): { value: number | null; error?: string } {
  const parsed = parseOutput(name);
  const missing = (why: string) => ({ value: null, error: why });
  if (!parsed) return missing('not an output name');
  if (parsed.kind === 'quantity') {
    let at: unknown = summary.quantities;
    for (const key of parsed.path)
      at = at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
    return typeof at === 'number' && Number.isFinite(at)
      ? { value: at }
      : missing(
          `the results have no ${name} (quantities: ${Object.keys(summary.quantities).join(', ') || 'none'})`,
        );
  }
  if (parsed.kind === 'frequency') {
    const f = summary.frequencies[parsed.index];
    return f === undefined
      ? missing(`the run found ${summary.frequencies.length} frequencies; ${name} needs ${parsed.index + 1}`)
      : { value: f };
  }
  const sp = summary.sParameters;
  if (!sp) return missing('the results have no S-parameters');
  const q = portIndex(sp.portIds, parsed.out);
  const p = portIndex(sp.portIds, parsed.in);
  if (q < 0 || p < 0)
    return missing(`no port ${q < 0 ? parsed.out : parsed.in} (ports: ${sp.portIds.join(', ')})`);
  const s = sParameterAt(sp, q, p, parsed.frequency);
  if (!s) {
    const lo = sp.frequencies[0];
    const hi = sp.frequencies[sp.frequencies.length - 1];
    return missing(`${parsed.frequency} Hz is outside the computed band (${lo}–${hi} Hz)`);
  }
  const [re, im] = s;
  const mag = Math.hypot(re, im);
  if (parsed.form === 'mag') return { value: mag };
  if (parsed.form === 'db') return { value: 20 * Math.log10(mag) };
  return { value: (Math.atan2(im, re) * 180) / Math.PI };
}

function portIndex(portIds: number[], port: number): number {
  const i = portIds.indexOf(port);
  if (i >= 0) return i;
  return portIds.length === 0 || port > portIds.length ? -1 : port - 1;
}

/** S[q][p] at `f`: the computed point (within 1e-9 relative), else linear between the two around it. */
function sParameterAt(
  sp: NonNullable<ResultsSummary['sParameters']>,
  q: number,
  p: number,
  f: number,
): [number, number] | null {
  const fs = sp.frequencies;
  const entry = (k: number) => sp.matrix[k]?.[q]?.[p] as [number, number] | undefined;
  for (let k = 0; k < fs.length; k++) {
    const fk = fs[k] as number;
    if (Math.abs(fk - f) <= 1e-9 * Math.max(Math.abs(f), 1)) return entry(k) ?? null;
    const next = fs[k + 1];
    if (next !== undefined && fk < f && f < next) {
      const a = entry(k);
      const b = entry(k + 1);
      if (!a || !b) return null;
      const t = (f - fk) / (next - fk);
      return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    }
  }
  return null;
}
