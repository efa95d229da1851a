import { isRecord } from '../../api/http.ts';

/** S-parameters vs frequency, one complex series per (i, j) pair. */
export interface SParameterSet {
  frequencies: number[];
  /** e.g. "S11", "S21" */
  series: { name: string; re: number[]; im: number[] }[];
  portImpedances?: number[];
  /** per port: "line" (a TEM port's V/I) or "mode" (a hollow guide's E_t/H_t) */
  portImpedanceKinds?: string[];
  /** the engine's `normalization`: "modal (…)" or "renormalized to 50 ohm" */
  normalization?: string;
}

const num = (v: unknown) => (typeof v === 'number' ? v : Number(v));
const nums = (v: unknown) => (Array.isArray(v) ? v.map(num) : []);

function complexSeries(name: string, value: unknown): { name: string; re: number[]; im: number[] } | null {
  if (Array.isArray(value)) {
    // [[re, im], ...]
    const pairs = value.filter(Array.isArray) as unknown[][];
    return { name, re: pairs.map((p) => num(p[0])), im: pairs.map((p) => num(p[1])) };
  }
  if (!isRecord(value)) return null;
  const re = value.real ?? value.re;
  const im = value.imag ?? value.im;
  if (Array.isArray(re) && Array.isArray(im)) return { name, re: nums(re), im: nums(im) };
  const db = value.magnitude_db ?? value.mag_db;
  const deg = value.phase_deg ?? value.phase;
  if (Array.isArray(db) && Array.isArray(deg)) {
    const mag = nums(db).map((x) => 10 ** (x / 20));
    const ph = nums(deg).map((x) => (x * Math.PI) / 180);
    return {
      name,
      re: mag.map((m, i) => m * Math.cos(ph[i] ?? 0)),
      im: mag.map((m, i) => m * Math.sin(ph[i] ?? 0)),
    };
  }
  return null;
}

/**
 * Reads S-parameters from results: `s_parameters` (or `sparameters`) with `frequencies` and either
 * named series ({S11: {real, imag}} / {S11: [[re, im]…]} / magnitude_db + phase_deg) or a matrix
 * per frequency (`matrix`: f × n × n × [re, im]).
 */
export function extractSParameters(result: Record<string, unknown>): SParameterSet | null {
  const sp = result.s_parameters ?? result.sparameters ?? result.sParameters;
  if (!isRecord(sp)) return null;
  const frequencies = nums(sp.frequencies ?? sp.frequency ?? sp.freqs);
  if (frequencies.length === 0) return null;
  const series: SParameterSet['series'] = [];
  const matrix = sp.matrix ?? sp.s_matrix;
  if (Array.isArray(matrix)) {
    const n = Array.isArray(matrix[0]) ? matrix[0].length : 0;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const re: number[] = [];
        const im: number[] = [];
        for (const m of matrix as unknown[][][][]) {
          const c = m[i]?.[j];
          re.push(num(c?.[0]));
          im.push(num(c?.[1]));
        }
        series.push({ name: `S${i + 1}${j + 1}`, re, im });
      }
  } else {
    const named = isRecord(sp.parameters) ? sp.parameters : isRecord(sp.data) ? sp.data : sp;
    for (const [k, v] of Object.entries(named)) {
      if (!/^S\d+$/i.test(k) && !/^S\d+,\d+$/i.test(k)) continue;
      const s = complexSeries(k.toUpperCase(), v);
      if (s) series.push(s);
    }
  }
  if (series.length === 0) return null;
  const z = sp.port_impedances ?? result.port_impedances;
  return {
    frequencies,
    series,
    portImpedances: Array.isArray(z) ? nums(z) : undefined,
    portImpedanceKinds: Array.isArray(sp.port_impedance_kinds)
      ? sp.port_impedance_kinds.map((k) => String(k))
      : undefined,
    normalization: typeof sp.normalization === 'string' ? sp.normalization : undefined,
  };
}

export const magnitudeDb = (re: number, im: number) => 20 * Math.log10(Math.max(Math.hypot(re, im), 1e-15));
export const phaseDeg = (re: number, im: number) => (Math.atan2(im, re) * 180) / Math.PI;
