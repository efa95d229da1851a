import { isRecord } from '../../api/http.ts';

/** Amplitude (per component x, y, z) and phase in degrees at each frequency of the sweep. */
export interface ComplexSeries {
  amplitude: number[][];
  phaseDeg: number[][];
}

export interface HarmonicProbe {
  name: string;
  displacement: ComplexSeries;
  velocity: ComplexSeries | null;
  acceleration: ComplexSeries | null;
}

/** A harmonic run's frequency response at its probe points (results `harmonic_response`, SI units). */
export interface HarmonicResponseData {
  frequencies: number[];
  probes: HarmonicProbe[];
}

const rows = (v: unknown): number[][] =>
  Array.isArray(v) ? v.map((r) => (Array.isArray(r) ? r.map(Number) : [])) : [];

const series = (v: unknown): ComplexSeries | null =>
  isRecord(v) && Array.isArray(v.amplitude)
    ? { amplitude: rows(v.amplitude), phaseDeg: rows(v.phase_deg) }
    : null;

/** Reads `harmonic_response` from a result; null when the run has none or no probe. */
export function harmonicResponse(result: Record<string, unknown>): HarmonicResponseData | null {
  const response = isRecord(result.harmonic_response) ? result.harmonic_response : null;
  if (!response || !Array.isArray(response.frequencies)) return null;
  const probes: HarmonicProbe[] = [];
  for (const p of Array.isArray(response.probes) ? response.probes : []) {
    const displacement = isRecord(p) && typeof p.name === 'string' ? series(p.displacement) : null;
    if (!isRecord(p) || !displacement) continue;
    probes.push({
      name: String(p.name),
      displacement,
      velocity: series(p.velocity),
      acceleration: series(p.acceleration),
    });
  }
  return probes.length ? { frequencies: response.frequencies.map(Number), probes } : null;
}
