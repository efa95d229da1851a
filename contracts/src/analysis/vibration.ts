import { z } from 'zod';
import type { ConfigIssue } from './thermal.ts';

/**
 * Vibration keys (docs/vibration.md): `modal` (natural frequencies and mode shapes) and `harmonic` (the
 * steady response to the structural loads as amplitudes). Supports, materials and loads are the structural
 * keys (structural.ts); a free–free modal run (no supports) is allowed.
 */
export const VIBRATION_DEFAULTS = {
  modalNumModes: 6,
  dampingRatio: 0.02,
  harmonicNumPoints: 101,
} as const;
export const HARMONIC_METHODS = ['modal', 'full'] as const;

export const vibrationKeys = {
  /** modes wanted (rigid-body modes of a free–free model come on top) */
  modalNumModes: z.number().int().min(1).max(50).default(VIBRATION_DEFAULTS.modalNumModes),
  /** Hz: look for modes from here up (the shift of the eigen solve) */
  modalMinFrequency: z.number().min(0).optional(),
  harmonicFreqMin: z.number().min(0).optional(),
  harmonicFreqMax: z.number().positive().optional(),
  harmonicNumPoints: z.number().int().min(2).max(2001).default(VIBRATION_DEFAULTS.harmonicNumPoints),
  /** modal damping ratio ζ */
  dampingRatio: z.number().gt(0).lt(1).default(VIBRATION_DEFAULTS.dampingRatio),
  /** 1/s: Rayleigh damping C = αM + βK instead of dampingRatio when either is above 0 (ζᵢ = α/2ωᵢ + βωᵢ/2) */
  rayleighAlpha: z.number().min(0).optional(),
  /** s: the stiffness-proportional term β of Rayleigh damping */
  rayleighBeta: z.number().min(0).optional(),
  /** mode superposition (default) or full direct solves with Rayleigh damping */
  harmonicMethod: z.enum(HARMONIC_METHODS).default('modal'),
  /** Hz: the frequency whose displacement field the viewer shows (default: the first mode) */
  harmonicFieldFrequency: z.number().positive().optional(),
  /** modal: solve the structural loads first and find the modes of K + K_σ (the geometric stiffness) */
  prestress: z.boolean().default(false),
};

interface VibrationChecked {
  analysisType?: string;
  harmonicFreqMin?: number;
  harmonicFreqMax?: number;
  modalMinFrequency?: number;
}

/**
 * Checks across fields a harmonic run needs before it is queued (the engine repeats the band's): a band
 * whose top is above its bottom, and no modal search bound (the sum needs the lowest modes). Returns
 * nothing for the other analyses.
 */
export function vibrationConfigIssues(config: VibrationChecked): ConfigIssue[] {
  if (config.analysisType !== 'harmonic') return [];
  const issues: ConfigIssue[] = [];
  const lo = config.harmonicFreqMin ?? 0;
  const hi = config.harmonicFreqMax;
  if (hi === undefined)
    issues.push({
      path: ['harmonicFreqMax'],
      message: "A harmonic run needs harmonicFreqMax (Hz), the band's top.",
    });
  else if (hi <= lo)
    issues.push({
      path: ['harmonicFreqMax'],
      message: `harmonicFreqMax (${hi} Hz) must be above harmonicFreqMin (${lo} Hz).`,
    });
  if ((config.modalMinFrequency ?? 0) > 0)
    issues.push({
      path: ['modalMinFrequency'],
      message:
        'modalMinFrequency bounds a modal search; a harmonic run must sum the lowest modes: leave it out.',
    });
  return issues;
}

/** Design-study outputs of the vibration analyses (docs/vibration.md; see StudyOutputCatalogue). */
export const VIBRATION_STUDY_OUTPUTS = {
  modal: { quantities: ['first_frequency_Hz', 'modes_found', 'total_mass_kg'], frequencies: true },
  harmonic: {
    quantities: [
      'first_frequency_Hz',
      'field_frequency_Hz',
      'peak_frequency_Hz',
      'peak_displacement_m',
      'max_displacement_amplitude_m',
    ],
  },
} as const;
