import { isRecord } from '../../api/http.ts';
import type { SParameterSet } from './s-parameters.ts';

/** Z_in(f) of one voltage source, against the source resistance its S11 refers to. */
export interface InputImpedance {
  label: string;
  referenceOhm: number | null;
  re: number[];
  im: number[];
}

/** The broadband response of one pulse run, in the shapes the frequency-domain panels draw. */
export interface TransientResponse {
  frequencies: number[];
  /** the driven port's S column (S11, S21, …) and each voltage source's S11; null when none was derived */
  sParameters: SParameterSet | null;
  inputImpedances: InputImpedance[];
  bandHz: [number, number] | null;
  drivenPort: string | null;
  normalization: string | null;
  /** TE/TM ports are matched at the carrier only: their largest reflection over the band */
  portMismatch: { portId: string; maxReflection: number }[];
}

const nums = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number) : []);
const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const parts = (pairs: unknown) => {
  const list = Array.isArray(pairs) ? pairs.filter(Array.isArray) : [];
  return { re: list.map((p) => Number(p[0])), im: list.map((p) => Number(p[1])) };
};

/**
 * Adapts `time_domain_info.frequency_response` (engine physics/transient/frequency_response.py) to the
 * S-parameter set the frequency-domain plot and table take: `s_parameters.column` ({S11: [[re, im]…],
 * S21: …}, the driven port's column) and, per voltage source, `s11` (named "S11 · label" when there are
 * several) with `input_impedance_ohm`.
 */
export function transientResponse(result: Record<string, unknown>): TransientResponse | null {
  const info = isRecord(result.time_domain_info) ? result.time_domain_info : null;
  const fr = info && isRecord(info.frequency_response) ? info.frequency_response : null;
  if (!fr) return null;
  const frequencies = nums(fr.frequencies);
  if (frequencies.length === 0) return null;
  const series: SParameterSet['series'] = [];
  const sp = isRecord(fr.s_parameters) ? fr.s_parameters : null;
  const column = sp && isRecord(sp.column) ? sp.column : {};
  for (const [name, pairs] of Object.entries(column)) series.push({ name, ...parts(pairs) });
  const sources = records(fr.voltage_sources);
  const inputImpedances: InputImpedance[] = [];
  const references: number[] = [];
  sources.forEach((src, i) => {
    const label = typeof src.label === 'string' ? src.label : `source ${i + 1}`;
    const reference = typeof src.reference_impedance_ohm === 'number' ? src.reference_impedance_ohm : null;
    if (Array.isArray(src.s11)) {
      series.push({ name: sources.length > 1 ? `S11 · ${label}` : 'S11', ...parts(src.s11) });
      if (reference !== null) references.push(reference);
    }
    if (Array.isArray(src.input_impedance_ohm))
      inputImpedances.push({ label, referenceOhm: reference, ...parts(src.input_impedance_ohm) });
  });
  const band = nums(fr.band_hz);
  return {
    frequencies,
    sParameters:
      series.length > 0
        ? {
            frequencies,
            series,
            portImpedances: references.length === series.length ? references : undefined,
          }
        : null,
    inputImpedances,
    bandHz: band.length === 2 ? [band[0] as number, band[1] as number] : null,
    drivenPort: sp && sp.driven_port != null ? String(sp.driven_port) : null,
    normalization: sp && typeof sp.normalization === 'string' ? sp.normalization : null,
    portMismatch: records(sp?.port_mismatch).map((m) => ({
      portId: String(m.port_id),
      maxReflection: Number(m.max_reflection),
    })),
  };
}
