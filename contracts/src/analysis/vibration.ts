import { z } from 'zod';

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
  /** mode superposition (default) or full direct solves with Rayleigh damping */
  harmonicMethod: z.enum(HARMONIC_METHODS).default('modal'),
  /** Hz: the frequency whose displacement field the viewer shows (default: the first mode) */
  harmonicFieldFrequency: z.number().positive().optional(),
};
