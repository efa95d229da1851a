import type { LINEAR_SOLVERS } from '@fieldline/contracts';

export type MeshOrder = 1 | 2 | 3;
export type LinearSolver = (typeof LINEAR_SOLVERS)[number];
/** Typed entries stay text until the config is built, so fallbacks apply to what the user typed. */
export type Triple = [string, string, string];
export interface ProbeRow {
  key: string;
  name: string;
  point: Triple;
}
/** A library material's property a family's materials group shows per body (SI). */
export type MaterialProperty =
  | 'conductivity'
  | 'relativePermeability'
  | 'density'
  | 'youngsModulus'
  | 'poissonRatio'
  | 'yieldStrength'
  | 'thermalConductivity'
  | 'heatCapacity'
  | 'thermalExpansion'
  | 'emissivity';

/**
 * Each family's fields of the form, by family id. Empty here: every family's folder adds its own entry
 * (`declare module '…/config/analysis-form.ts' { interface FamilyForms { thermal: ThermalFormFields } }`), so the
 * form's type grows with the families without this file naming one (docs/multiphysics.md §5).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, one entry per family folder
export interface FamilyForms {}

/** A family's id: `form.physics`, the chooser's buttons, `?physics=` in the URL. */
export type PhysicsFamily = keyof FamilyForms & string;

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The fields every family's form shares: the chooser, the solver, the element order and curving, probes, body
 * materials, output; the contract's common keys (contracts/src/analysis/common.ts) every family's engine reads. */
export interface CommonFormFields {
  /** the physics chooser: which family's groups the form shows and runs */
  physics: PhysicsFamily;
  tolerance: string;
  maxIterations: string;
  linearSolver: LinearSolver;
  meshOrder: MeshOrder;
  useCurvedMesh: boolean;
  useCurvedGeometry: boolean;
  probes: ProbeRow[];
  /** kg/m³ and J/(kg·K) where a body has no material of its own */
  density: string;
  heatCapacity: string;
  /** frames of a time-dependent result (EM transient, thermal transient) */
  animationFrames: number;
  gridFieldsEnabled: boolean;
  gridResolution: Triple;
  gridPaddingFactor: number;
  verbose: boolean;
  autoRunAnalysis: boolean;
  /** adaptive refinement (docs/adaptive.md): off, or its tolerance ('' = the analysis's default), the
   * quantity whose change stops it ('' = the estimated error, full-wave: max |ΔS|), passes and size limit */
  adaptiveEnabled: boolean;
  adaptiveTolerance: string;
  adaptiveQuantity: string;
  adaptiveMaxPasses: string;
  adaptiveMaxUnknowns: string;
  /** Dörfler's share of the estimated error refined per pass ('' = the engine's default, 0.3) */
  adaptiveFraction: string;
  /** the adaptation frequency in Hz where the analysis adapts at one frequency ('' = the analysis's default;
   * sent only when the chosen family offers it: `FamilyModule.adaptiveFrequency`) */
  adaptiveFrequency: string;
  /** body (region) index → materials-library id */
  bodyMaterials: Record<number, string>;
  /** body index → properties typed over the library material's (structural, thermal) */
  bodyOverrides: Record<number, Partial<Record<MaterialProperty, string>>>;
}

/** The configuration form's state (spec 001 §2 groups): the common fields and every family's. Each family keeps
 * its fields while another is chosen, so switching back finds them as they were. */
export type AnalysisForm = CommonFormFields & Intersection<FamilyForms[keyof FamilyForms]>;

/** The form's row lists whose rows name faces of the model (picked on the model, marked in colour). */
export type FaceListKey = {
  [K in keyof AnalysisForm]: AnalysisForm[K] extends Array<{ key: string; faces: string }> ? K : never;
}[keyof AnalysisForm];

let keyCounter = 0;

/** A default as the user reads it: 1.2566370614359173e-6 rather than 0.0000012566…; exact round trip. */
export function numberText(n: number): string {
  const abs = Math.abs(n);
  return abs !== 0 && (abs < 1e-3 || abs >= 1e6) ? n.toExponential() : String(n);
}
/** Stable React keys for list rows. */
export function rowKey(): string {
  return `row-${Date.now().toString(36)}-${(keyCounter++).toString(36)}`;
}

/** A new probe row; `point`: where it starts (config/probe-default.ts puts it inside the model). */
export function newProbeRow(index: number, point: Triple = ['0', '0', '0']): ProbeRow {
  return { key: rowKey(), name: `P${index + 1}`, point };
}
