import { isRecord } from '../../api/http.ts';
import { isMultiBodyResults, unwrapResults } from '../results/process-results.ts';

/** Spec 001 §5 results-file messages. */
export const INVALID_RESULTS_FILE = 'Invalid FEA results file: missing mesh data (vertices/faces).';
export const NO_SUCCESSFUL_MULTI_BODY_FILE = 'No successful results found in multi-body FEA file.';

/** A JSON upload containing solver_info, fea_results or field_magnitudes is completed results (§4). */
export function isResultsJson(json: unknown): boolean {
  if (!isRecord(json)) return false;
  if ('solver_info' in json || 'fea_results' in json || 'field_magnitudes' in json) return true;
  return isMultiBodyResults(json);
}

/** The two results-file checks; returns the error message, or null when the file is usable. */
export function checkResultsFile(json: unknown): string | null {
  if (isMultiBodyResults(json)) {
    const list = isRecord(json) && Array.isArray(json.results) ? json.results : [];
    const ok = list.some((r) => isRecord(r) && r.success === true && isRecord(r.result_data));
    return ok ? null : NO_SUCCESSFUL_MULTI_BODY_FILE;
  }
  const r = unwrapResults(json);
  return Array.isArray(r.vertices) && Array.isArray(r.faces) ? null : INVALID_RESULTS_FILE;
}
