import { ANALYSIS_BOUNDS, ANALYSIS_DEFAULTS, type AnalysisConfigInput } from '@fieldline/contracts';
import type { AnalysisForm, Triple } from '../../config/analysis-form.ts';
import { parseFaceList } from '../../config/face-list.ts';
import { materialById } from '../../config/materials-library.ts';
import { clamp, numberOr, parseInteger, parseNumber, positiveOr } from '../../config/numbers.ts';
import type { ToBackendContext } from '../family-module.ts';
import { isMagneticType, magneticsToBackend } from './magnetics/magnetics-to-backend.ts';

const d = ANALYSIS_DEFAULTS;
const b = ANALYSIS_BOUNDS;

/** The backend's `mode` (spec 001 §3: em → electro, em-time → electro-time, em-eigen → electro-eigen); a
 * frequency-domain run the user forces to full-wave is mode "fullwave". */
export function emMode(analysisType: string, form?: AnalysisForm): string {
  if (analysisType === 'em-time') return 'electro-time';
  if (analysisType === 'em-eigen') return 'electro-eigen';
  if (isMagneticType(analysisType)) return analysisType;
  return analysisType === 'em' && form?.formulation === 'fullwave' ? 'fullwave' : 'electro';
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
/** The DC conduction keys: voltages on nodes and face groups (terminals), the reference node, σ and ε. Joule
 * heating in a thermal run sends these too (the engine's thermal/joule.py CONDUCTION_KEYS). */
export function emConductionToBackend(form: AnalysisForm): Partial<AnalysisConfigInput> {
  const dirichletConditions: Record<string, number> = {};
  for (const row of form.dirichletNodes) {
    const node = parseInteger(row.node);
    const voltage = parseNumber(row.voltage);
    if (node === undefined || node < 0 || voltage === undefined) continue;
    dirichletConditions[String(node)] = voltage;
  }
  const referenceNode = parseInteger(form.referenceNode);
  return {
    defaultPermittivity: positive(form.defaultPermittivity, d.defaultPermittivity),
    defaultConductivity: nonNegative(form.defaultConductivity, d.defaultConductivity),
    dirichletConditions,
    dirichletFaceConditions: form.dirichletFaceGroups.flatMap((g) => {
      const faces = parseFaceList(g.faces);
      const voltage = parseNumber(g.voltage);
      if (faces.length === 0 || voltage === undefined) return [];
      return [{ faces, voltage, name: g.name.trim() || undefined }];
    }),
    referenceNode: referenceNode !== undefined && referenceNode >= 0 ? referenceNode : null,
  };
}

/**
 * The electromagnetic keys of the backend config (spec 001 §3). Bounds of §5 are enforced and §5/§9
 * fallbacks applied; incomplete rows (a Dirichlet entry without node or voltage, a face list with no valid id)
 * are left out.
 */
export function emToBackend(form: AnalysisForm, context: ToBackendContext): Partial<AnalysisConfigInput> {
  // Coils, magnets and iron read their own keys; the electric ones are sent at their off values.
  if (isMagneticType(context.analysisType)) return { ...EM_IDLE_KEYS, ...magneticsToBackend(form, context) };
  const config: Partial<AnalysisConfigInput> = {
    frequency: clamp(form.frequencyHz, b.frequencyHz.min, b.frequencyHz.max),
    defaultPermeability: positive(form.defaultPermeability, d.defaultPermeability),
    ...emConductionToBackend(form),
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
    transient: form.transient,
    timeStep: positive(form.timeStep, d.timeStep),
    endTime: positive(form.endTime, d.endTime),
    timeScheme: form.timeScheme,
    pulseShape: form.pulseShape,
    pulseWidth: nonNegative(form.pulseWidth, 0),
    pulseDelay: nonNegative(form.pulseDelay, 0),
    pulseFrequency: nonNegative(form.pulseFrequency, 0),
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
    useAnisotropicMaterials: form.useAnisotropicMaterials,
    anisotropicMaterials: form.useAnisotropicMaterials
      ? form.anisotropicMaterials.map((m, i) => ({
          id: portId(m.id, i - 1), // a body: its index from 0 (a blank row: the row's own index)
          permittivity: triple(m.permittivity, 1),
          permeability: triple(m.permeability, 1),
          conductivity: triple(m.conductivity, 0),
        }))
      : [],
    bodyMaterials: context.bodies.flatMap((body) => {
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
  };
  if (context.analysisType === 'em-eigen') {
    config.eigenNumModes = clamp(positiveInt(form.eigenNumModes, 6), 1, 50);
    config.eigenFieldMode = Math.max(0, parseInteger(form.eigenFieldMode) ?? 0);
  }
  return config;
}

/** The EM switches at their off values (what the engine's other families list as unused when set). */
export const EM_IDLE_KEYS: Partial<AnalysisConfigInput> = {
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
