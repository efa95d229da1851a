import {
  ADAPTIVE_BOUNDS,
  ADAPTIVE_DEFAULTS,
  ANALYSIS_BOUNDS,
  ANALYSIS_DEFAULTS,
  type AnalysisConfigInput,
  LINEAR_SOLVERS,
} from '@fieldline/contracts';
import {
  type CommonFormFields,
  type MeshOrder,
  numberText,
  type ProbeRow,
  rowKey,
  type Triple,
} from '../analysis-form.ts';
import { clamp, parseInteger, parseNumber, positiveOr } from '../numbers.ts';
import { type ConfigReader, isNumber, positive, tripleText } from './config-reader.ts';

const d = ANALYSIS_DEFAULTS;
const b = ANALYSIS_BOUNDS;

/** The common fields at the spec 001 §9 defaults (the chooser's family is set by the registry). */
export function defaultCommonForm(): Omit<CommonFormFields, 'physics'> {
  return {
    tolerance: numberText(d.tolerance),
    maxIterations: numberText(d.maxIterations),
    linearSolver: 'auto',
    meshOrder: 1,
    useCurvedMesh: false,
    useCurvedGeometry: false,
    probes: [],
    bodyMaterials: {},
    bodyOverrides: {},
    density: numberText(d.density),
    heatCapacity: numberText(d.heatCapacity),
    animationFrames: d.animationFrames,
    gridFieldsEnabled: false,
    gridResolution: d.gridResolution.map(numberText) as Triple,
    gridPaddingFactor: d.gridPaddingFactor,
    verbose: false,
    autoRunAnalysis: false,
    adaptiveEnabled: false,
    adaptiveTolerance: '',
    adaptiveQuantity: '',
    adaptiveMaxPasses: String(ADAPTIVE_DEFAULTS.maxPasses),
    adaptiveMaxUnknowns: String(ADAPTIVE_DEFAULTS.maxUnknowns),
    adaptiveFraction: '',
    adaptiveFrequency: '',
  };
}

/** `adaptiveRefinement` from the form: absent when off; a blank or unusable tolerance, quantity, share per pass or
 * adaptation frequency is left to the engine's default for the analysis, passes and size clamped to the contract's
 * bounds. The frequency is sent only where the chosen family offers it (`withFrequency`). */
export function adaptiveToBackend(
  form: CommonFormFields,
  withFrequency = false,
): Partial<AnalysisConfigInput> {
  if (!form.adaptiveEnabled) return {};
  const tolerance = parseNumber(form.adaptiveTolerance);
  const frequency = withFrequency ? parseNumber(form.adaptiveFrequency) : undefined;
  const passes = parseInteger(form.adaptiveMaxPasses) ?? ADAPTIVE_DEFAULTS.maxPasses;
  const unknowns = parseInteger(form.adaptiveMaxUnknowns) ?? ADAPTIVE_DEFAULTS.maxUnknowns;
  const quantity = form.adaptiveQuantity.trim();
  const fraction = parseNumber(form.adaptiveFraction);
  return {
    adaptiveRefinement: {
      ...(tolerance !== undefined && tolerance > 0 && tolerance < 1 ? { tolerance } : {}),
      ...(quantity ? { quantity } : {}),
      ...(frequency !== undefined && frequency > 0 ? { frequency } : {}),
      maxPasses: clamp(passes, ADAPTIVE_BOUNDS.maxPasses.min, ADAPTIVE_BOUNDS.maxPasses.max),
      maxUnknowns: clamp(unknowns, ADAPTIVE_BOUNDS.maxUnknowns.min, ADAPTIVE_BOUNDS.maxUnknowns.max),
      ...(fraction !== undefined && fraction > 0 && fraction <= 1 ? { fraction } : {}),
    },
  };
}

function adaptiveFromBackend(r: ConfigReader, form: Omit<CommonFormFields, 'physics'>): void {
  const raw = r.config.adaptiveRefinement;
  if (raw === undefined) return;
  if (!raw || typeof raw !== 'object') {
    r.reset.push('adaptiveRefinement');
    return;
  }
  const a = raw as Record<string, unknown>;
  form.adaptiveEnabled = true;
  if (isNumber(a.tolerance)) form.adaptiveTolerance = String(a.tolerance);
  if (typeof a.quantity === 'string') form.adaptiveQuantity = a.quantity;
  if (isNumber(a.maxPasses)) form.adaptiveMaxPasses = String(a.maxPasses);
  if (isNumber(a.maxUnknowns)) form.adaptiveMaxUnknowns = String(a.maxUnknowns);
  if (isNumber(a.fraction)) form.adaptiveFraction = String(a.fraction);
  if (isNumber(a.frequency) && a.frequency > 0) form.adaptiveFrequency = String(a.frequency);
}

/** The common fields that name bodies of the model: back to defaults on a new upload. */
export const COMMON_MODEL_BOUND = ['density', 'heatCapacity', 'bodyMaterials', 'bodyOverrides'] as const;

const positiveInt = (text: string, fallback: number) => {
  const v = parseInteger(text);
  return v !== undefined && v > 0 ? v : fallback;
};
const gridAxis = (text: string) =>
  clamp(Math.round(parseNumber(text) ?? d.gridResolution[0]), b.gridResolution.min, b.gridResolution.max);
const snapFrames = (frames: number) =>
  clamp(
    Math.round(frames / b.animationFrames.step) * b.animationFrames.step,
    b.animationFrames.min,
    b.animationFrames.max,
  );
/** [x, y, z] when all three parse, else undefined (the row is incomplete). */
const finiteTriple = (t: Triple): [number, number, number] | undefined => {
  const v = t.map((x) => parseNumber(x));
  return v.every((x) => x !== undefined) ? (v as [number, number, number]) : undefined;
};

/** The common keys of every run's backend config; §5 bounds enforced, §5/§9 fallbacks applied.
 * `adaptiveFrequency`: the chosen analysis adapts at one frequency the form may set. */
export function commonToBackend(
  form: CommonFormFields,
  { adaptiveFrequency = false }: { adaptiveFrequency?: boolean } = {},
): Partial<AnalysisConfigInput> {
  const grid = form.gridResolution.map(gridAxis) as [number, number, number];
  return {
    tolerance: positiveOr(form.tolerance, d.tolerance),
    maxIterations: positiveInt(form.maxIterations, d.maxIterations),
    linearSolver: form.linearSolver,
    meshOrder: b.meshOrder.includes(form.meshOrder) ? form.meshOrder : 1,
    useCurvedMesh: form.useCurvedMesh,
    useCurvedGeometry: form.useCurvedGeometry,
    density: positiveOr(form.density, d.density),
    heatCapacity: positiveOr(form.heatCapacity, d.heatCapacity),
    probePoints: form.probes.flatMap((p) => {
      const point = finiteTriple(p.point);
      return point ? [{ name: p.name.trim() || undefined, point }] : [];
    }),
    animationFrames: snapFrames(form.animationFrames),
    gridFieldsEnabled: form.gridFieldsEnabled,
    gridResolution: grid,
    gridResolutionX: grid[0],
    gridResolutionY: grid[1],
    gridResolutionZ: grid[2],
    gridPaddingFactor: clamp(form.gridPaddingFactor, b.gridPaddingFactor.min, b.gridPaddingFactor.max),
    verbose: form.verbose,
    autoRunAnalysis: form.autoRunAnalysis,
    ...adaptiveToBackend(form, adaptiveFrequency),
  };
}

/** The common fields back from a saved config (body materials are the family's: each maps them its way). */
export function commonFromBackend(r: ConfigReader): Partial<CommonFormFields> {
  const form = defaultCommonForm();
  r.text('tolerance', form, 'tolerance', positive);
  r.text('maxIterations', form, 'maxIterations', (n) => Number.isInteger(n) && n > 0);
  form.linearSolver = r.oneOf('linearSolver', LINEAR_SOLVERS, form.linearSolver);
  const order = r.number('meshOrder', (n) => (b.meshOrder as readonly number[]).includes(n));
  if (order !== undefined) form.meshOrder = order as MeshOrder;
  form.useCurvedMesh = r.bool('useCurvedMesh', false);
  form.useCurvedGeometry = r.bool('useCurvedGeometry', false);
  r.text('density', form, 'density', positive);
  r.text('heatCapacity', form, 'heatCapacity', positive);
  form.probes = r.rows('probePoints', probeRow);
  const frames = r.number(
    'animationFrames',
    (n) => Number.isInteger(n) && n >= b.animationFrames.min && n <= b.animationFrames.max,
  );
  if (frames !== undefined) form.animationFrames = frames;
  form.gridFieldsEnabled = r.bool('gridFieldsEnabled', false);
  form.gridResolution = gridResolution(r) ?? form.gridResolution;
  const padding = r.number(
    'gridPaddingFactor',
    (n) => n >= b.gridPaddingFactor.min && n <= b.gridPaddingFactor.max,
  );
  if (padding !== undefined) form.gridPaddingFactor = padding;
  form.verbose = r.bool('verbose', false);
  form.autoRunAnalysis = r.bool('autoRunAnalysis', false);
  adaptiveFromBackend(r, form);
  const { bodyMaterials: _materials, bodyOverrides: _overrides, ...fields } = form;
  return fields;
}

function probeRow(e: Record<string, unknown>, i: number): ProbeRow | null {
  const point = tripleText(e.point);
  if (!point) return null;
  return { key: rowKey(), name: typeof e.name === 'string' ? e.name : `P${i + 1}`, point };
}

function gridResolution(r: ConfigReader): Triple | null {
  const config = r.config;
  const valid = (n: unknown) =>
    isNumber(n) && Number.isInteger(n) && n >= b.gridResolution.min && n <= b.gridResolution.max;
  const list = config.gridResolution;
  if (Array.isArray(list) && list.length === 3 && list.every(valid)) return list.map(String) as Triple;
  const axes = [config.gridResolutionX, config.gridResolutionY, config.gridResolutionZ];
  if (axes.every(valid)) return axes.map(String) as Triple;
  if (list !== undefined || axes.some((a) => a !== undefined)) r.reset.push('gridResolution');
  return null;
}
