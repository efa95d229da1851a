import { z } from 'zod';
import { type AnalysisType, commonKeys, type StudyOutputCatalogue } from './common.ts';
import { coupledConfigIssues, coupledKeys } from './coupled.ts';
import { EM_STUDY_OUTPUTS, emKeys } from './em.ts';
import { magneticsConfigIssues, magneticsKeys } from './magnetics.ts';
import { STRUCTURAL_STUDY_OUTPUTS, structuralConfigIssues, structuralKeys } from './structural.ts';
import { THERMAL_STUDY_OUTPUTS, thermalConfigIssues, thermalKeys } from './thermal.ts';
import { VIBRATION_STUDY_OUTPUTS, vibrationConfigIssues, vibrationKeys } from './vibration.ts';

export * from './common.ts';
export * from './coupled.ts';
export * from './em.ts';
export * from './magnetics.ts';
export * from './structural.ts';
export * from './thermal.ts';
export * from './vibration.ts';

/**
 * The analysis configuration's fields in their backend form (spec 001 §3): the shared keys and every
 * family's keys in one flat object (the spec's EM keys stay flat and unchanged). Every field has its
 * default, so a partial config is complete after parsing; unknown keys pass through (the engine names
 * those it cannot honour). A form still being filled in is read with this one (the run estimate).
 */
export const AnalysisConfigFields = z
  .object({
    ...commonKeys,
    ...emKeys,
    ...thermalKeys,
    ...structuralKeys,
    ...vibrationKeys,
    ...coupledKeys,
    ...magneticsKeys,
  })
  .passthrough();

/** A submitted configuration: the fields, and the checks across them a family needs before a run. */
export const AnalysisConfig = AnalysisConfigFields.superRefine((config, ctx) => {
  for (const issue of thermalConfigIssues(config)) ctx.addIssue({ code: 'custom', ...issue });
  for (const issue of vibrationConfigIssues(config)) ctx.addIssue({ code: 'custom', ...issue });
  for (const issue of magneticsConfigIssues(config)) ctx.addIssue({ code: 'custom', ...issue });
  for (const issue of structuralConfigIssues(config)) ctx.addIssue({ code: 'custom', ...issue });
  for (const issue of coupledConfigIssues(config)) ctx.addIssue({ code: 'custom', ...issue });
});
export type AnalysisConfig = z.infer<typeof AnalysisConfig>;
export type AnalysisConfigInput = z.input<typeof AnalysisConfig>;

/** What a design study may collect, per analysis type (each family lists its own; meshing produces none). */
export const STUDY_OUTPUTS: Partial<Record<AnalysisType, StudyOutputCatalogue>> = {
  ...EM_STUDY_OUTPUTS,
  ...THERMAL_STUDY_OUTPUTS,
  ...STRUCTURAL_STUDY_OUTPUTS,
  ...VIBRATION_STUDY_OUTPUTS,
};
