/**
 * The validation report (docs/validation/report.json, written by the engine's test run) and the benches'
 * side-by-side summaries (bench/<name>/summary.json), as the /docs/validation page reads them.
 */

export type ValidationFamily = 'em' | 'structural' | 'thermal' | 'vibration';

export const VALIDATION_FAMILY_LABELS: Record<ValidationFamily, string> = {
  em: 'Electromagnetics',
  structural: 'Structural',
  thermal: 'Thermal',
  vibration: 'Vibration',
};

export interface ConvergencePoint {
  unknowns: number;
  error: number;
}

/** One reference case: what was computed, against what, and how close. */
export interface ValidationRow {
  id: string;
  family: ValidationFamily;
  name: string;
  description: string;
  /** A sketch key (sphere-shell, coax, waveguide, cavity, beam, …) the page draws a small figure for. */
  geometry: string;
  quantity: string;
  unit: string;
  /** Where the reference value comes from: a closed form, NAFEMS, a Mie series, … */
  source: string;
  reference: number;
  value: number;
  /** |error|, in `error_kind`: "relative" (a fraction), "rate", "absolute", or the unit of an absolute error (°, dB). */
  error: number;
  error_kind: string;
  tolerance: number;
  passed: boolean;
  order: number | null;
  unknowns: number | null;
  seconds: number | null;
  convergence: ConvergencePoint[] | null;
  expected_order: number | null;
  test: string;
}

export interface ValidationReport {
  generated_at: string;
  commit: string | null;
  machine: { cpus: number | null; platform: string; python: string };
  cases: ValidationRow[];
  /** Cases of the table that recorded no row in this run (the run then failed). */
  missing: string[];
}

export interface BenchRow {
  case: string;
  metric: string;
  fieldline: string;
  peer: string;
  /** Fieldline ÷ peer for the metric. */
  ratio: number;
  /** Which way is good for Fieldline: a lower time or memory, a higher throughput. */
  better: 'lower' | 'higher';
}

export interface BenchSummary {
  bench: string;
  title: string;
  peer: string;
  date: string;
  machine: string;
  readme: string;
  ratio_meaning: string;
  rows: BenchRow[];
}
