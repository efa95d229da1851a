import { isRecord } from '../../api/http.ts';
import { extractQuantities, type Quantity } from './quantities.ts';
import { extractSParameters, type SParameterSet } from './s-parameters.ts';

/** Spec 001 §8 result-processing messages. */
export const RESULT_MESSAGES = {
  noSuccessfulMultiBody: 'No successful results found in multi-body analysis',
  noResultData: 'No result data available for visualization',
  processingFailed: 'Failed to process analysis results for visualization',
  noResultsYet: 'No analysis results available yet.',
} as const;

export class ResultsError extends Error {}

export interface BodyResult {
  name: string;
  success: boolean;
  data: Record<string, unknown> | null;
  error?: string;
}

export interface ProcessedResults {
  multiBody: boolean;
  bodies: BodyResult[];
  /** index into bodies of the result shown (multi-body), 0 for single results */
  activeBody: number;
  active: Record<string, unknown>;
  solverInfo: Record<string, unknown> | null;
  computationTime: number | null;
  quantities: Quantity[];
  sParameters: SParameterSet | null;
  timeDomain: boolean;
  animationFrames: number;
  successCount?: number;
  meshCount?: number;
  /** the backend config the result was computed with (results.json `analysis_config`); null in older files */
  analysisConfig: Record<string, unknown> | null;
}

/** The results object; saved files may wrap it as { fea_results: {...} }. */
export function unwrapResults(raw: unknown): Record<string, unknown> {
  if (!isRecord(raw)) throw new ResultsError(RESULT_MESSAGES.noResultData);
  return isRecord(raw.fea_results) ? { ...raw, ...raw.fea_results } : raw;
}

export function isMultiBodyResults(raw: unknown): boolean {
  return isRecord(raw) && (raw.type === 'multi_body' || raw.format === 'multi_body');
}

function bodyResults(raw: Record<string, unknown>): BodyResult[] {
  const list = Array.isArray(raw.results) ? raw.results : [];
  return list.filter(isRecord).map((r, i) => ({
    name: typeof r.mesh_name === 'string' ? r.mesh_name : `Body ${i + 1}`,
    success: r.success === true && isRecord(r.result_data),
    data: isRecord(r.result_data) ? r.result_data : null,
    error: typeof r.error === 'string' ? r.error : undefined,
  }));
}

function hasVisualData(r: Record<string, unknown>): boolean {
  return Array.isArray(r.vertices) && r.vertices.length > 0;
}

/** A multi-body file may carry the config once at its top level, or per body like a single result. */
function analysisConfigOf(raw: Record<string, unknown>, active: Record<string, unknown>) {
  if (isRecord(active.analysis_config)) return active.analysis_config;
  return isRecord(raw.analysis_config) ? raw.analysis_config : null;
}

function describe(
  active: Record<string, unknown>,
): Omit<ProcessedResults, 'multiBody' | 'bodies' | 'activeBody' | 'analysisConfig'> {
  const anim = isRecord(active.animation) ? active.animation : null;
  const frames = anim && Array.isArray(anim.data) ? anim.data.length : 0;
  return {
    active,
    solverInfo: isRecord(active.solver_info) ? active.solver_info : null,
    computationTime: typeof active.computation_time === 'number' ? active.computation_time : null,
    quantities: extractQuantities(active),
    sParameters: extractSParameters(active),
    timeDomain: active.time_domain_info != null,
    animationFrames: frames,
  };
}

/** Turns a results object (job status or loaded file) into what the panels and the viewer show. */
export function processResults(raw: unknown, activeBody = 0): ProcessedResults {
  if (isMultiBodyResults(raw)) {
    const r = raw as Record<string, unknown>;
    const bodies = bodyResults(r);
    const successful = bodies.map((b, i) => (b.success ? i : -1)).filter((i) => i >= 0);
    if (successful.length === 0) throw new ResultsError(RESULT_MESSAGES.noSuccessfulMultiBody);
    const index = successful.includes(activeBody) ? activeBody : (successful[0] as number);
    const active = bodies[index]?.data as Record<string, unknown>;
    if (!hasVisualData(active)) throw new ResultsError(RESULT_MESSAGES.noResultData);
    return {
      multiBody: true,
      bodies,
      activeBody: index,
      ...describe(active),
      analysisConfig: analysisConfigOf(r, active),
      successCount: typeof r.success_count === 'number' ? r.success_count : successful.length,
      meshCount: typeof r.mesh_count === 'number' ? r.mesh_count : bodies.length,
    };
  }
  const active = unwrapResults(raw);
  if (!hasVisualData(active)) throw new ResultsError(RESULT_MESSAGES.noResultData);
  return {
    multiBody: false,
    bodies: [],
    activeBody: 0,
    ...describe(active),
    analysisConfig: analysisConfigOf(active, active),
  };
}
