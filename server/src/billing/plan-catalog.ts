import { readFileSync } from 'node:fs';
import { Plan, PlanFeatures } from '@fieldline/contracts';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/** Spec 000 §3 Plan (contracts): every field is required in the plans file. */
export { Plan, PlanFeatures };

const PlansFile = z.record(z.string().regex(/^[a-z0-9_-]{1,40}$/, 'plan ids are lower-case slugs'), Plan);

/** The default plan of every account (spec 000 §4: 'token'). */
export const DEFAULT_PLAN_ID = 'token';

export type QueueName = 'priority' | 'standard';

/**
 * The plans operators configure (PLANS_FILE, JSON or YAML). Read once at start-up; a broken file
 * stops the server with a message naming the file and the bad field rather than serving wrong prices.
 */
export class PlanCatalog {
  private constructor(private readonly plans: Record<string, Plan>) {}

  static fromFile(file: string): PlanCatalog {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new Error(`Cannot read the plans file ${file}: ${(err as Error).message}`);
    }
    let raw: unknown;
    try {
      raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
    } catch (err) {
      throw new Error(
        `The plans file ${file} is not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(err as Error).message}`,
      );
    }
    return PlanCatalog.fromObject(raw, file);
  }

  static fromObject(raw: unknown, origin = 'plans'): PlanCatalog {
    const parsed = PlansFile.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${origin}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid plans'}`);
    }
    if (!parsed.data[DEFAULT_PLAN_ID])
      throw new Error(`${origin}: the '${DEFAULT_PLAN_ID}' plan is required`);
    return new PlanCatalog(parsed.data);
  }

  /** The object keyed by plan id, as GET /api/plans returns it. */
  all(): Record<string, Plan> {
    return structuredClone(this.plans);
  }

  get(id: string): Plan | null {
    return this.plans[id] ?? null;
  }

  /** The plan, falling back to the default plan for ids that were removed from the file. */
  resolve(id: string | null | undefined): { id: string; plan: Plan } {
    const plan = id ? this.plans[id] : undefined;
    if (plan && id) return { id, plan };
    return { id: DEFAULT_PLAN_ID, plan: this.plans[DEFAULT_PLAN_ID] as Plan };
  }

  /** Whether a plan is paid by the hour from a monthly allowance (else purely by tokens). */
  static isSubscription(plan: Plan): boolean {
    return plan.compute_hours_per_month > 0;
  }

  static queueFor(plan: Plan): QueueName {
    return plan.features.priority_queue ? 'priority' : 'standard';
  }
}
