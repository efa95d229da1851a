import { isRecord } from '../../api/http.ts';
import { defaultFamily, familyOfAnalysisType } from '../families/registry.ts';
import type { AnalysisForm } from './analysis-form.ts';
import { commonFromBackend } from './common/common-config.ts';
import { ConfigReader } from './common/config-reader.ts';
import { defaultAnalysisForm } from './form-defaults.ts';

export interface RestoredForm {
  form: AnalysisForm;
  /** the settings that could not be read back and were set to the form's defaults (field names) */
  reset: string[];
}

/** The notice shown when some saved settings were unreadable. */
export function restoreNotice(reset: readonly string[]): string | null {
  if (reset.length === 0) return null;
  const shown = reset.slice(0, 6).join(', ');
  const more = reset.length > 6 ? ` and ${reset.length - 6} more` : '';
  return `Some saved run settings could not be read and were reset to their defaults: ${shown}${more}.`;
}

/**
 * The reverse of toBackendConfig: the backend config a result was computed with (results.json
 * `analysis_config`) back into the form's state, so a saved result can be read and run again as it was: the
 * common fields, then the fields of the family whose analysis type it is (families/<id>/index.ts).
 * Never throws: a missing key keeps the form default silently (older configs), a present but invalid
 * value keeps the default and is named in `reset`.
 */
export function fromBackendConfig(config: unknown): RestoredForm {
  const form = defaultAnalysisForm();
  const reset: string[] = [];
  if (!isRecord(config)) return { form, reset: ['analysis configuration'] };
  const reader = new ConfigReader(config, reset);
  const analysisType = config.analysisType;
  const family = analysisType === undefined ? defaultFamily() : familyOfAnalysisType(analysisType);
  if (!family) reset.push('analysisType');
  const restored = family ?? defaultFamily();
  Object.assign(form, commonFromBackend(reader), restored.fromBackend(config, reader), {
    physics: restored.id,
  });
  return { form, reset };
}
