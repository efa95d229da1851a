import { z } from 'zod';
import { ANALYSIS_BOUNDS, ANALYSIS_DEFAULTS, faceList, point3, regionRef } from './common.ts';

/** Electromagnetic keys: the spec's (spec 001 §3), flat and unchanged, plus the EM extensions. */

/** Spec 001 §5 enumerations. */
export const WAVE_PORT_MODES = ['TE10', 'TE20', 'TM01', 'TEM'] as const;
export const S_PARAM_METHODS = ['wave_port', 'field_integration', 'voltage_current', 'power_wave'] as const;
/** Frequency sweep of the S-parameters (docs/fullwave.md): a full solve per point, or an adaptive
 * reduced-order model built from a few full solves. */
export const S_PARAM_SWEEP_TYPES = ['uniform', 'adaptive'] as const;
/** The adaptive sweep's cap on full solves (the engine's fast_sweep.DEFAULT_MAX_SOLVES). */
export const ADAPTIVE_SWEEP_MAX_SOLVES = 20;
/** Time-domain excitation waveforms (docs/transient.md). */
export const PULSE_SHAPES = ['gaussian', 'modulated_gaussian', 'sinusoidal'] as const;

/**
 * Spec 001 §9 surface field modes and the named fields (docs/multiphysics.md §1) each one shows:
 * `setFieldMode(n)` is the spec's alias for `setField(SPEC_FIELD_MODES[n])`.
 */
export const SPEC_FIELD_MODES = [
  { label: 'Electric Field', name: 'electric_field', display: 'arrows' },
  { label: 'Magnetic Field', name: 'magnetic_field', display: 'arrows' },
  { label: 'Electric Magnitude', name: 'electric_field', display: 'magnitude' },
  { label: 'Magnetic Magnitude', name: 'magnetic_field', display: 'magnitude' },
] as const;

/** setStreamlines' spec-era field names: 'E' and 'H' trace these named fields (any other name is itself). */
export const SPEC_STREAMLINE_FIELDS: Readonly<Record<string, string>> = {
  E: 'electric_field',
  H: 'magnetic_field',
};

export const ImpedanceCondition = z.object({
  faces: faceList,
  /** Surface impedance Z_s in Ω (e^{+jωt}). */
  impedance: z.object({ real: z.number(), imag: z.number() }),
  /** A good conductor instead of a fixed Z_s: Z_s = (1 + j)·√(ωμ/2σ) at each frequency (S/m). */
  conductivity: z.number().positive().optional(),
  /** Relative permeability of that conductor (default 1). */
  permeability: z.number().positive().optional(),
});
/** Face-based Dirichlet groups: a user picks faces, not nodes. */
export const DirichletFaceCondition = z.object({
  faces: faceList,
  voltage: z.number(),
  name: z.string().optional(),
});
export const WavePort = z.object({
  portID: z.union([z.number(), z.string()]),
  faces: faceList,
  mode: z.enum(WAVE_PORT_MODES).default('TE10'),
  amplitude: z.number().default(1),
  phase: z.number().default(0),
});
export const AnisotropicMaterial = z.object({
  id: z.union([z.number(), z.string()]),
  permittivity: z.tuple([z.number(), z.number(), z.number()]).default([1, 1, 1]),
  permeability: z.tuple([z.number(), z.number(), z.number()]).default([1, 1, 1]),
  conductivity: z.tuple([z.number(), z.number(), z.number()]).default([0, 0, 0]),
});
/** A time-domain volume current J = density·g(t) (A/m²) in a body and/or an axis-aligned box (model units). */
export const VolumeCurrent = z.object({
  density: point3,
  region: regionRef.optional(),
  boxMin: point3.optional(),
  boxMax: point3.optional(),
  phase: z.number().default(0),
});

const d = ANALYSIS_DEFAULTS;

export const emKeys = {
  frequency: z.number().min(0).max(ANALYSIS_BOUNDS.frequencyHz.max).default(d.frequency),
  defaultPermittivity: z.number().positive().default(d.defaultPermittivity),
  defaultPermeability: z.number().positive().default(d.defaultPermeability),
  defaultConductivity: z.number().min(0).default(d.defaultConductivity),
  dirichletConditions: z.record(z.string(), z.number()).default({}),
  dirichletFaceConditions: z.array(DirichletFaceCondition).default([]),
  impedanceConditions: z.array(ImpedanceCondition).default([]),
  referenceNode: z.number().int().nonnegative().nullable().optional(),
  /** Excitation waveform; width, delay and carrier frequency 0 mean automatic (docs/transient.md). */
  pulseShape: z.enum(PULSE_SHAPES).default(d.pulseShape),
  pulseWidth: z.number().min(0).default(0),
  pulseDelay: z.number().min(0).default(0),
  pulseFrequency: z.number().min(0).default(0),
  volumeCurrents: z.array(VolumeCurrent).default([]),
  useRadialPML: z.boolean().default(false),
  pmlThickness: z.number().min(0.01).max(0.5).default(d.pmlThickness),
  pmlSigmaMax: z.number().positive().default(d.pmlSigmaMax),
  useWavePorts: z.boolean().default(false),
  wavePorts: z.array(WavePort).default([]),
  calculateSParameters: z.boolean().default(false),
  portImpedance: z.number().positive().default(d.portImpedance),
  extractSParameters: z.boolean().default(false),
  sParamFreqMin: z.number().positive().default(d.sParamFreqMin),
  sParamFreqMax: z.number().positive().default(d.sParamFreqMax),
  sParamNumPoints: z.number().int().min(1).max(10001).default(d.sParamNumPoints),
  sParamMethod: z.enum(S_PARAM_METHODS).default('wave_port'),
  sParamSweepType: z.enum(S_PARAM_SWEEP_TYPES).default(d.sParamSweepType),
  sParamAdaptiveTolerance: z
    .number()
    .min(ANALYSIS_BOUNDS.sParamAdaptiveTolerance.min)
    .max(ANALYSIS_BOUNDS.sParamAdaptiveTolerance.max)
    .default(d.sParamAdaptiveTolerance),
  useAnisotropicMaterials: z.boolean().default(false),
  anisotropicMaterials: z.array(AnisotropicMaterial).default([]),
  /** em-eigen: number of cavity modes (docs/fullwave.md) and the 0-based mode whose fields are written. */
  eigenNumModes: z.number().int().min(1).max(50).default(6),
  eigenFieldMode: z.number().int().nonnegative().default(0),
};

/** EM's named result fields (docs/multiphysics.md §1; the engine's em/field_catalogue.py). */
export const EM_FIELDS = {
  potential: { label: 'Electric potential', unit: 'V', kind: 'scalar' },
  electric_field: { label: 'Electric field', unit: 'V/m', kind: 'vector' },
  magnetic_field: { label: 'Magnetic field', unit: 'A/m', kind: 'vector' },
  current_density: { label: 'Current density', unit: 'A/m^2', kind: 'vector' },
} as const;

/**
 * The spec's EM result keys (spec 001 §3) per named field: results files written before the catalogue,
 * and results.bin version 1, carry only these.
 */
export const EM_SPEC_KEYS = {
  electric_field: { vectors: 'efields', imag: 'efields_imag', magnitude: 'e_magnitudes' },
  magnetic_field: { vectors: 'hfields', imag: 'hfields_imag', magnitude: 'h_magnitudes' },
  current_density: { vectors: 'jfields', imag: 'jfields_imag', magnitude: 'j_magnitudes' },
} as const;

/**
 * The scalar figures a time-domain run reports (docs/transient.md, docs/adaptive.md): the strongest ringing
 * frequency at the first probe (warping undone; pulsed runs), the largest |V| at a port or voltage source, the
 * largest electromagnetic energy and the largest |E| at a probe over the run. Adaptive refinement may follow any.
 */
export const EM_TIME_QUANTITIES = [
  'resonance_frequency_Hz',
  'peak_port_voltage_V',
  'peak_energy_J',
  'peak_electric_field_V_per_m',
] as const;

/** Design-study outputs of the EM analyses (docs/em-static.md, docs/fullwave.md; see StudyOutputCatalogue). */
export const EM_STUDY_OUTPUTS = {
  em: {
    quantities: [
      'capacitance_F',
      'stored_energy_J',
      'resistance_ohm',
      'dissipated_power_W',
      'conductance_S',
      'magnetic_energy_J',
      'impedance_ohm.magnitude',
      'impedance_ohm.phase_deg',
    ],
    sParameters: true,
  },
  'em-time': { quantities: EM_TIME_QUANTITIES, sParameters: true },
  'em-eigen': { quantities: [], frequencies: true },
} as const;
