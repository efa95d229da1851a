import { z } from 'zod';
import type { ConfigIssue } from './thermal.ts';

/**
 * Coupled and chained runs (docs/multiphysics.md §7). `analysisType: "thermal-structural"` is a steady thermal
 * solve and then elasticity under its thermal strain, in one job; its keys are the thermal and structural
 * ones. `fieldsFrom` chains runs across jobs: the receiving job takes named fields of another completed job
 * of the caller on the same mesh (the server checks that before a job row exists; the worker reads the
 * source's stored results, the browser never re-uploads them).
 */

/** Which fields each receiving analysis takes from another job, and what for. */
export const CHAINABLE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  /** the thermal load α (T − referenceTemperature) */
  structural: ['temperature'],
  /** the initial state */
  'thermal-time': ['temperature'],
  /** the prestress (geometric stiffness) */
  modal: ['stress'],
};
export const CHAINABLE_FIELD_NAMES = ['temperature', 'stress'] as const;

export const FieldsFrom = z.object({
  /** the source job (the caller's own, completed, on the same mesh) */
  jobId: z.string().uuid(),
  fields: z.array(z.enum(CHAINABLE_FIELD_NAMES)).min(1).max(2),
  /** a transient source's frame: its index (0-based) or "last"; a steady source has none */
  frame: z.union([z.number().int().nonnegative(), z.literal('last')]).optional(),
});
export type FieldsFrom = z.infer<typeof FieldsFrom>;

export const coupledKeys = {
  fieldsFrom: FieldsFrom.optional(),
};

interface CoupledChecked {
  analysisType?: string;
  transient?: boolean;
  fieldsFrom?: { fields: string[] };
  temperatureLoad?: unknown;
  prestress?: boolean;
}

/** The receiving analysis of a config (the Transient switch selects thermal's time-domain twin). */
function receiving(config: CoupledChecked): string {
  const type = config.analysisType ?? 'em';
  return type === 'thermal' && config.transient ? 'thermal-time' : type;
}

/**
 * Checks across fields of coupled and chained configs: a field the receiving analysis takes, one
 * temperature (uniform or chained, not both), one prestress (own loads or chained, not both).
 */
export function coupledConfigIssues(config: CoupledChecked): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const type = receiving(config);
  if (type === 'thermal-structural' && config.temperatureLoad !== undefined)
    issues.push({
      path: ['temperatureLoad'],
      message:
        'A thermal-structural run takes its temperature from its own thermal solve: leave temperatureLoad out.',
    });
  if (type === 'thermal-structural' && config.transient)
    issues.push({
      path: ['transient'],
      message:
        'A thermal-structural run solves the steady temperature: chain a structural run from a transient thermal job instead (fieldsFrom).',
    });
  const chained = config.fieldsFrom;
  if (!chained) return issues;
  const takes = CHAINABLE_FIELDS[type] ?? [];
  for (const name of chained.fields)
    if (!takes.includes(name))
      issues.push({
        path: ['fieldsFrom', 'fields'],
        message: takes.length
          ? `A ${type} run takes ${takes.join(', ')} from another job, not ${name}.`
          : `A ${type} run takes no fields from another job (fieldsFrom is for structural, thermal-time and modal runs).`,
      });
  if (chained.fields.includes('temperature') && config.temperatureLoad !== undefined)
    issues.push({
      path: ['temperatureLoad'],
      message: 'Give the temperature either as temperatureLoad or from another job (fieldsFrom), not both.',
    });
  if (chained.fields.includes('stress') && config.prestress)
    issues.push({
      path: ['prestress'],
      message:
        "Give the prestress either from this run's loads (prestress) or from another job (fieldsFrom), not both.",
    });
  return issues;
}
