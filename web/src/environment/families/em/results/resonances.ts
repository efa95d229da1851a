import { isRecord } from '../../../../api/http.ts';

export interface ResonancePeak {
  /** With the time scheme's frequency warping undone (equal to recordedHz when not corrected). */
  frequencyHz: number;
  recordedHz: number;
}
export interface ProbeResonances {
  probe: string;
  /** The E component the engine listened to (the one with most energy after the pulse). */
  component: string | null;
  peaks: ResonancePeak[];
}
export interface Resonances {
  corrected: boolean;
  scheme: string;
  /** Short name of the correction applied, or "not corrected". */
  correction: string;
  /** The engine's rule, e.g. "f = tan(pi f_d dt)/(pi dt) (…)". */
  rule: string | null;
  listenFromS: number | null;
  probes: ProbeResonances[];
}

/** Schemes whose warping has a closed form (engine em/transient/warping.py WARPING_RULES). */
const CORRECTIONS: Record<string, string> = {
  newmark: 'Newmark warping undone (tan map)',
  explicit: 'central-difference warping undone (sin map)',
};
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Adapts `time_domain_info.resonances` (engine em/transient/warping.py probe_resonances): per probe, the
 * ringing frequencies after the pulse, strongest first. Null when the run has none (sinusoidal drive,
 * too short a quiet tail, results from before the field existed).
 */
export function resonances(info: Record<string, unknown>): Resonances | null {
  const r = isRecord(info.resonances) ? info.resonances : null;
  if (!r || !Array.isArray(r.probes)) return null;
  const corrected = r.corrected === true;
  const scheme = typeof info.scheme === 'string' ? info.scheme : '';
  const probes = r.probes.filter(isRecord).map((p) => ({
    probe: typeof p.probe === 'string' ? p.probe : '?',
    component: typeof p.component === 'string' ? p.component : null,
    peaks: (Array.isArray(p.peaks) ? p.peaks : []).filter(isRecord).flatMap((peak) => {
      const recordedHz = num(peak.recorded_frequency_hz);
      const frequencyHz = num(peak.frequency_hz) ?? recordedHz;
      return frequencyHz === null ? [] : [{ frequencyHz, recordedHz: recordedHz ?? frequencyHz }];
    }),
  }));
  if (probes.length === 0) return null;
  return {
    corrected,
    scheme,
    correction: corrected ? (CORRECTIONS[scheme] ?? `${scheme} warping undone`) : 'not corrected',
    rule: typeof r.warping === 'string' ? r.warping : null,
    listenFromS: num(r.listen_from_s),
    probes,
  };
}
