import { z } from 'zod';
import { commonKeys } from './common.ts';
import { emKeys } from './em.ts';
import { structuralKeys } from './structural.ts';
import { thermalKeys } from './thermal.ts';
import { vibrationKeys } from './vibration.ts';

export * from './common.ts';
export * from './em.ts';
export * from './structural.ts';
export * from './thermal.ts';
export * from './vibration.ts';

/**
 * The analysis configuration in its backend form (spec 001 §3): the shared keys and every family's keys in
 * one flat object (the spec's EM keys stay flat and unchanged). Every field has its default, so a partial
 * config is complete after parsing; unknown keys pass through (the engine names those it cannot honour).
 */
export const AnalysisConfig = z
  .object({ ...commonKeys, ...emKeys, ...thermalKeys, ...structuralKeys, ...vibrationKeys })
  .passthrough();
export type AnalysisConfig = z.infer<typeof AnalysisConfig>;
export type AnalysisConfigInput = z.input<typeof AnalysisConfig>;
