import type { AnalysisConfigInput, AnalysisType } from '@fieldline/contracts';
import { defaultFamily, families, familyById, familyOfAnalysisType } from '../families/registry.ts';
import type { AnalysisForm } from './analysis-form.ts';
import { commonToBackend } from './common/common-config.ts';

export type JobPurpose = 'analysis' | 'meshing';
export type BackendAnalysisType = AnalysisType;
/** The meshing job's analysis type (and mode). */
const MESHING_TYPE = 'tetra-only';

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

/** The backend's `mode` of an analysis type (spec 001 §3), from its family; tetra-only kept. */
export function modeForAnalysisType(analysisType: string): string {
  if (analysisType === MESHING_TYPE) return MESHING_TYPE;
  return (familyOfAnalysisType(analysisType) ?? defaultFamily()).mode(analysisType);
}

export function analysisTypeFor(form: AnalysisForm, purpose: JobPurpose): BackendAnalysisType {
  return purpose === 'meshing' ? MESHING_TYPE : familyById(form.physics).analysisType(form);
}

/**
 * The one place the form becomes the backend config (spec 001 §3 backend form): the common keys, then the
 * chosen family's (families/<id>/index.ts), then every other family's switches at their off values. A meshing
 * job gets the common keys and the mesh-size controls.
 */
export function toBackendConfig(
  form: AnalysisForm,
  options: { purpose?: JobPurpose; bodies?: readonly BodyRef[]; meshing?: MeshingOptions } = {},
): AnalysisConfigInput {
  const purpose = options.purpose ?? 'analysis';
  const family = familyById(form.physics);
  const analysisType = analysisTypeFor(form, purpose);
  const config: AnalysisConfigInput = {
    analysisType,
    mode: purpose === 'meshing' ? MESHING_TYPE : family.mode(analysisType, form),
    meshingOnly: purpose === 'meshing',
    ...commonToBackend(form, { adaptiveFrequency: family.adaptiveFrequency?.(form) != null }),
  };
  if (purpose === 'meshing') {
    if (options.meshing) Object.assign(config, meshingKeys(options.meshing));
    return config;
  }
  const own = family.toBackend(form, { bodies: options.bodies ?? [], analysisType });
  // Another family's groups keep their state while this one is chosen, but its switches are not sent set:
  // the engine would list them as unused in the run's notes. A key the chosen family sends itself is its own
  // (thermal's induction heating sends the eddy-current frequency).
  for (const other of families()) if (other !== family) Object.assign(config, other.idleKeys ?? {});
  Object.assign(config, own);
  return config;
}

export function meshingKeys(m: MeshingOptions): Record<string, number | string | boolean> {
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
