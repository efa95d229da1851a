import { ANALYSIS_BOUNDS, ANALYSIS_DEFAULTS, type AnalysisConfigInput } from '@fieldline/contracts';
import type { AnalysisForm, Triple } from './analysis-form.ts';
import { parseFaceList } from './face-list.ts';
import { materialById } from './materials-library.ts';
import { clamp, numberOr, parseInteger, parseNumber, positiveOr } from './numbers.ts';
import { structuralToBackend } from './structural/structural-form.ts';
import { thermalToBackend } from './thermal/thermal-form.ts';
import { vibrationToBackend } from './vibration/vibration-form.ts';

const d = ANALYSIS_DEFAULTS;
const b = ANALYSIS_BOUNDS;

export type JobPurpose = 'analysis' | 'meshing';
export type BackendAnalysisType =
  | 'em'
  | 'em-time'
  | 'em-eigen'
  | 'thermal'
  | 'thermal-time'
  | 'structural'
  | 'modal'
  | 'harmonic'
  | 'tetra-only';

/** A body of the model that can carry a material (multi-body models). */
export interface BodyRef {
  region: number;
  name: string;
}

export const MESH_ALGORITHMS = ['auto', 'hxt', 'delaunay', 'netgen'] as const;
export type MeshAlgorithm = (typeof MESH_ALGORITHMS)[number];

/**
 * Mesh-size controls sent with a meshing job (extra keys that pass through the contract; the engine's
 * geometry/options.py reads them). Sizes are in model units; absent means automatic.
 */
export interface MeshingOptions {
  maxElementSize?: number;
  minElementSize?: number;
  /** curvature refinement: elements per full circle, 3–120 */
  elementsPerCircle?: number;
  algorithm?: MeshAlgorithm;
  /** 'safe' repairs (merge duplicates, fix orientation) or none */
  repair?: 'safe' | 'none';
  /** how fast sizes grow away from small features, 0–1 */
  grading?: number;
  /** refine along curved surfaces (default on) */
  curvatureRefinement?: boolean;
}

/**
 * The backend's `mode` (spec 001 §3: em → electro, anything containing "time" → electro-time,
 * tetra-only kept). em-eigen follows the same pattern.
 */
export function modeForAnalysisType(analysisType: string): string {
  if (analysisType === 'tetra-only') return 'tetra-only';
  if (analysisType === 'structural') return 'structural';
  if (analysisType.startsWith('thermal') || analysisType === 'modal' || analysisType === 'harmonic')
    return analysisType;
  if (analysisType.includes('time')) return 'electro-time';
  if (analysisType === 'em-eigen') return 'electro-eigen';
  return 'electro';
}

export function analysisTypeFor(form: AnalysisForm, purpose: JobPurpose): BackendAnalysisType {
  if (purpose === 'meshing') return 'tetra-only';
  if (form.physics === 'structural') return 'structural';
  if (form.physics === 'thermal') return form.thermalTransient ? 'thermal-time' : 'thermal';
  if (form.physics === 'vibration') return form.vibrationKind;
  return form.transient ? 'em-time' : form.analysisType;
}

const positive = (text: string, fallback: number) => positiveOr(text, fallback);
const nonNegative = (text: string, fallback: number) => {
  const v = parseNumber(text);
  return v !== undefined && v >= 0 ? v : fallback;
};
const positiveInt = (text: string, fallback: number) => {
  const v = parseInteger(text);
  return v !== undefined && v > 0 ? v : fallback;
};
const gridAxis = (text: string) =>
  clamp(Math.round(parseNumber(text) ?? d.gridResolution[0]), b.gridResolution.min, b.gridResolution.max);
const triple = (t: Triple, fallback: number): [number, number, number] => [
  numberOr(t[0], fallback),
  numberOr(t[1], fallback),
  numberOr(t[2], fallback),
];
/** [x, y, z] when all three parse, else undefined (the row is incomplete). */
const finiteTriple = (t: Triple): [number, number, number] | undefined => {
  const v = t.map((x) => parseNumber(x));
  return v.every((x) => x !== undefined) ? (v as [number, number, number]) : undefined;
};
const portId = (text: string, index: number): number | string => {
  const trimmed = text.trim();
  if (trimmed === '') return index + 1;
  const n = parseInteger(trimmed);
  return n !== undefined ? n : trimmed;
};
const snapFrames = (frames: number) =>
  clamp(
    Math.round(frames / b.animationFrames.step) * b.animationFrames.step,
    b.animationFrames.min,
    b.animationFrames.max,
  );

/**
 * The one place the form becomes the backend config (spec 001 §3 backend form: adds mode,
 * meshingOnly and gridResolutionX/Y/Z). Bounds of §5 are enforced and §5/§9 fallbacks applied;
 * incomplete rows (a Dirichlet entry without node or voltage, a face list with no valid id) are left out.
 */
export function toBackendConfig(
  form: AnalysisForm,
  options: { purpose?: JobPurpose; bodies?: readonly BodyRef[]; meshing?: MeshingOptions } = {},
): AnalysisConfigInput {
  const purpose = options.purpose ?? 'analysis';
  const analysisType = analysisTypeFor(form, purpose);
  const grid = form.gridResolution.map(gridAxis) as [number, number, number];

  const dirichletConditions: Record<string, number> = {};
  for (const row of form.dirichletNodes) {
    const node = parseInteger(row.node);
    const voltage = parseNumber(row.voltage);
    if (node === undefined || node < 0 || voltage === undefined) continue;
    dirichletConditions[String(node)] = voltage;
  }
  const referenceNode = parseInteger(form.referenceNode);

  const forceFullWave = purpose === 'analysis' && analysisType === 'em' && form.formulation === 'fullwave';
  const config: AnalysisConfigInput = {
    analysisType,
    mode: forceFullWave ? 'fullwave' : modeForAnalysisType(analysisType),
    meshingOnly: purpose === 'meshing',
    frequency: clamp(form.frequencyHz, b.frequencyHz.min, b.frequencyHz.max),
    tolerance: positive(form.tolerance, d.tolerance),
    maxIterations: positiveInt(form.maxIterations, d.maxIterations),
    linearSolver: form.linearSolver,
    defaultPermittivity: positive(form.defaultPermittivity, d.defaultPermittivity),
    defaultPermeability: positive(form.defaultPermeability, d.defaultPermeability),
    defaultConductivity: nonNegative(form.defaultConductivity, d.defaultConductivity),
    density: positive(form.density, d.density),
    heatCapacity: positive(form.heatCapacity, d.heatCapacity),
    dirichletConditions,
    dirichletFaceConditions: form.dirichletFaceGroups.flatMap((g) => {
      const faces = parseFaceList(g.faces);
      const voltage = parseNumber(g.voltage);
      if (faces.length === 0 || voltage === undefined) return [];
      return [{ faces, voltage, name: g.name.trim() || undefined }];
    }),
    neumannConditions: form.neumann.flatMap((row) => {
      const faces = parseFaceList(row.faces);
      return faces.length ? [{ faces, flux: numberOr(row.flux, 0) }] : [];
    }),
    impedanceConditions: form.impedance.flatMap((row) => {
      const faces = parseFaceList(row.faces);
      const impedance = {
        real: numberOr(row.real, d.impedance.real),
        imag: numberOr(row.imag, d.impedance.imag),
      };
      return faces.length ? [{ faces, impedance }] : [];
    }),
    referenceNode: referenceNode !== undefined && referenceNode >= 0 ? referenceNode : null,
    transient: form.transient,
    timeStep: positive(form.timeStep, d.timeStep),
    endTime: positive(form.endTime, d.endTime),
    timeScheme: form.timeScheme,
    pulseShape: form.pulseShape,
    pulseWidth: nonNegative(form.pulseWidth, 0),
    pulseDelay: nonNegative(form.pulseDelay, 0),
    pulseFrequency: nonNegative(form.pulseFrequency, 0),
    probePoints: form.probes.flatMap((p) => {
      const point = finiteTriple(p.point);
      return point ? [{ name: p.name.trim() || undefined, point }] : [];
    }),
    volumeCurrents: form.volumeCurrents.flatMap((c) => {
      const density = finiteTriple(c.density);
      if (!density) return [];
      const region = parseInteger(c.region);
      const boxMin = finiteTriple(c.boxMin);
      const boxMax = finiteTriple(c.boxMax);
      const box = boxMin && boxMax ? { boxMin, boxMax } : {};
      if (region === undefined && !boxMin) return [];
      return [
        {
          density,
          ...(region !== undefined && region >= 0 ? { region } : {}),
          ...box,
          phase: numberOr(c.phase, 0),
        },
      ];
    }),
    useCurvedMesh: form.useCurvedMesh,
    useCurvedGeometry: form.useCurvedGeometry,
    meshOrder: b.meshOrder.includes(form.meshOrder) ? form.meshOrder : 1,
    useRadialPML: form.useRadialPML,
    pmlThickness: clamp(form.pmlThickness, b.pmlThickness.min, b.pmlThickness.max),
    pmlSigmaMax: positive(form.pmlSigmaMax, d.pmlSigmaMax),
    useWavePorts: form.useWavePorts,
    wavePorts: form.useWavePorts
      ? form.wavePorts.flatMap((p, i) => {
          const faces = parseFaceList(p.faces);
          if (faces.length === 0) return [];
          return [
            {
              portID: portId(p.portID, i),
              faces,
              mode: p.mode,
              amplitude: numberOr(p.amplitude, 1),
              phase: numberOr(p.phase, 0),
            },
          ];
        })
      : [],
    calculateSParameters: form.calculateSParameters,
    portImpedance: positive(form.portImpedance, d.portImpedance),
    extractSParameters: form.extractSParameters,
    sParamFreqMin: positive(form.sParamFreqMin, d.sParamFreqMin),
    sParamFreqMax: positive(form.sParamFreqMax, d.sParamFreqMax),
    sParamNumPoints: Math.min(positiveInt(form.sParamNumPoints, d.sParamNumPoints), 10001),
    sParamMethod: form.sParamMethod,
    sParamSweepType: form.sParamSweepType,
    sParamAdaptiveTolerance: clamp(
      positive(form.sParamAdaptiveTolerance, d.sParamAdaptiveTolerance),
      b.sParamAdaptiveTolerance.min,
      b.sParamAdaptiveTolerance.max,
    ),
    animate: form.animate,
    animationFrames: snapFrames(form.animationFrames),
    gridFieldsEnabled: form.gridFieldsEnabled,
    gridResolution: grid,
    gridResolutionX: grid[0],
    gridResolutionY: grid[1],
    gridResolutionZ: grid[2],
    gridPaddingFactor: clamp(form.gridPaddingFactor, b.gridPaddingFactor.min, b.gridPaddingFactor.max),
    useAnisotropicMaterials: form.useAnisotropicMaterials,
    anisotropicMaterials: form.useAnisotropicMaterials
      ? form.anisotropicMaterials.map((m, i) => ({
          id: portId(m.id, i),
          permittivity: triple(m.permittivity, 1),
          permeability: triple(m.permeability, 1),
          conductivity: triple(m.conductivity, 0),
        }))
      : [],
    bodyMaterials: (options.bodies ?? []).flatMap((body) => {
      const id = form.bodyMaterials[body.region];
      if (!id) return [];
      const m = materialById(id);
      return [
        {
          region: body.region,
          name: body.name,
          relativePermittivity: m.relativePermittivity,
          relativePermeability: m.relativePermeability,
          conductivity: m.conductivity,
          lossTangent: m.lossTangent,
        },
      ];
    }),
    verbose: form.verbose,
    autoRunAnalysis: form.autoRunAnalysis,
  };
  if (purpose === 'meshing' && options.meshing) Object.assign(config, meshingKeys(options.meshing));
  if (analysisType === 'structural') Object.assign(config, structuralToBackend(form, options.bodies ?? []));
  if (form.physics === 'thermal' && purpose === 'analysis')
    Object.assign(config, thermalToBackend(form, options.bodies ?? []));
  if (form.physics === 'vibration' && purpose === 'analysis')
    Object.assign(config, vibrationToBackend(form, options.bodies ?? []));
  // The EM groups keep their state while another family is chosen, but a thermal, structural or
  // vibration run is not sent them: the engine would list them as unused in the run's notes.
  if (form.physics !== 'em' && purpose === 'analysis') Object.assign(config, EM_ONLY_OFF);
  if (analysisType === 'em-eigen') {
    config.eigenNumModes = clamp(positiveInt(form.eigenNumModes, 6), 1, 50);
    config.eigenFieldMode = Math.max(0, parseInteger(form.eigenFieldMode) ?? 0);
  }
  return config;
}

/** The EM switches at their off values (what the engine's other families list as unused when set). */
const EM_ONLY_OFF: Partial<AnalysisConfigInput> = {
  frequency: 0,
  transient: false,
  useRadialPML: false,
  useWavePorts: false,
  wavePorts: [],
  calculateSParameters: false,
  extractSParameters: false,
  impedanceConditions: [],
  animate: false,
};

function meshingKeys(m: MeshingOptions): Record<string, number | string | boolean> {
  const out: Record<string, number | string | boolean> = {};
  if (m.maxElementSize !== undefined && m.maxElementSize > 0) out.meshMaxSize = m.maxElementSize;
  if (m.minElementSize !== undefined && m.minElementSize > 0) out.meshMinSize = m.minElementSize;
  const perCircle = m.elementsPerCircle;
  if (perCircle !== undefined && Number.isInteger(perCircle) && perCircle >= 3 && perCircle <= 120) {
    out.meshElementsPerCircle = perCircle;
  }
  if (m.algorithm && m.algorithm !== 'auto') out.meshAlgorithm = m.algorithm;
  if (m.repair) out.meshRepair = m.repair;
  if (m.grading !== undefined && m.grading > 0 && m.grading <= 1) out.meshGrading = m.grading;
  if (m.curvatureRefinement === false) out.meshCurvatureRefinement = false;
  return out;
}
