import { defaultFamily, families } from '../families/registry.ts';
import type { AnalysisForm } from './analysis-form.ts';
import { defaultCommonForm } from './common/common-config.ts';

/** Spec 001 §9 defaults: the common fields and every family's, the chooser on its first family. */
export function defaultAnalysisForm(): AnalysisForm {
  const form: Record<string, unknown> = { physics: defaultFamily().id, ...defaultCommonForm() };
  for (const family of families()) Object.assign(form, family.defaults());
  return form as unknown as AnalysisForm;
}
