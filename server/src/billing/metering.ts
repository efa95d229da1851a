import type { Kysely } from 'kysely';
import type { Database, JobsTable } from '../db/schema.ts';
import { type Plan, PlanCatalog } from './plan-catalog.ts';
import { roundUnits, type UsageLedger } from './usage-ledger.ts';
import type { UserPlans } from './user-plans.ts';

export interface Charge {
  tokens: number;
  hours: number;
}

/**
 * What a run of `seconds` costs on `plan`, given the subscription hours already used this period.
 * Token plan: tokens = hours × tokensPerHour. Subscription: hours come out of the monthly allowance;
 * beyond it, each overage hour costs the plan's token_cost in tokens.
 */
export function priceRun(
  plan: Plan,
  seconds: number,
  hoursUsedThisPeriod: number,
  tokensPerHour: number,
): Charge {
  const hours = Math.max(0, seconds) / 3600;
  if (!PlanCatalog.isSubscription(plan)) return { tokens: roundUnits(hours * tokensPerHour), hours: 0 };
  const allowanceLeft = Math.max(0, plan.compute_hours_per_month - hoursUsedThisPeriod);
  const fromAllowance = Math.min(hours, allowanceLeft);
  const overage = hours - fromAllowance;
  return { tokens: roundUnits(overage * plan.token_cost), hours: roundUnits(fromAllowance) };
}

/** Which outcomes are charged: the user's own time is; time lost to the platform is not. */
export function isCharged(
  kind: JobsTable['kind'],
  status: JobsTable['status'],
  errorCode: string | null,
): boolean {
  if (kind !== 'analysis') return false; // meshing and conversion are free (open to guests too)
  if (status === 'completed' || status === 'cancelled') return true;
  return status === 'failed' && !isPlatformFailure(errorCode);
}

/** Failures caused by the platform, never by the user's model or settings. */
const PLATFORM_FAILURES = new Set([
  'engine_unavailable',
  'engine_crashed',
  'engine_error',
  'interrupted',
  'worker_lost',
  'storage_error',
  /** a chained run's source results were gone when its worker started (retention keeps them; never expected) */
  'fields_from_missing',
  'disk_full',
  'internal_error',
]);

export function isPlatformFailure(code: string | null): boolean {
  return code === null || PLATFORM_FAILURES.has(code);
}

/** Charges finished jobs to their owner's ledger inside the transaction that records the final state. */
export class Metering {
  constructor(
    private readonly ledger: UsageLedger,
    private readonly userPlans: UserPlans,
    private readonly catalog: PlanCatalog,
    readonly tokensPerHour: number,
  ) {}

  /** Records the charge for a finished job (at most once per job); returns what was charged. */
  async chargeJob(
    trx: Kysely<Database>,
    job: Pick<JobsTable, 'id' | 'owner_user_id' | 'kind' | 'plan_id' | 'analysis_type'> &
      Partial<Pick<JobsTable, 'api_token_name'>>,
    final: { status: JobsTable['status']; errorCode: string | null; seconds: number; cores?: number },
    /** Another ledger source for a further charge on the same job (e.g. 'batch-sync'); default 'job'. */
    entry: { source: string; description?: string } = { source: 'job' },
  ): Promise<Charge> {
    const none = { tokens: 0, hours: 0 };
    if (!job.owner_user_id || !isCharged(job.kind, final.status, final.errorCode)) return none;
    const effective = await this.userPlans.planOf(job.owner_user_id, trx);
    // Price on the plan the job was submitted under when it still exists; the period is the current one.
    const { id: planId, plan } = this.catalog.resolve(job.plan_id ?? effective.id);
    const used = await this.ledger.balance(job.owner_user_id, effective.periodStart, trx);
    // Core-hours: wall time × the cores the run held (MPI ranks × threads per rank; docs/billing.md).
    const cores = Math.max(1, Math.floor(final.cores ?? 1));
    const coreSeconds = final.seconds * cores;
    const charge = priceRun(plan, coreSeconds, used.hoursUsed, this.tokensPerHour);
    const minutes = (coreSeconds / 60).toFixed(2);
    const onCores = cores > 1 ? ` (${(final.seconds / 60).toFixed(2)} min × ${cores} cores)` : '';
    // The ledger says which API token submitted a job (issue 38); browser runs say nothing extra.
    const byToken = job.api_token_name ? `, submitted with API token "${job.api_token_name}"` : '';
    const inserted = await this.ledger.append(
      {
        user_id: job.owner_user_id,
        entry_type: 'job_charge',
        tokens: -charge.tokens,
        hours: charge.hours,
        compute_seconds: coreSeconds,
        job_id: job.id,
        plan_id: planId,
        source: entry.source,
        source_id: job.id,
        description:
          entry.description ??
          `${job.analysis_type} job ${final.status}: ${minutes} compute-minutes${onCores}${byToken}`,
      },
      trx,
    );
    return inserted ? charge : none;
  }
}
