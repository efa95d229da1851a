import type { Db } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import type { JobService } from '../jobs/job-service.ts';
import type { Metering } from './metering.ts';
import { type Plan, PlanCatalog, type QueueName } from './plan-catalog.ts';
import { roundUnits, type UsageLedger } from './usage-ledger.ts';
import type { UserPlans } from './user-plans.ts';

/** A user's usage for the current period, from the ledger (the billing screens build on this). */
export interface UsageSummary {
  plan: string;
  plan_name: string;
  status: string;
  period_start: string;
  current_period_end: string | null;
  tokens_available: number;
  tokens_used: number;
  tokens_purchased: number;
  tokens_remaining: number;
  compute_hours_used: number;
  compute_hours_limit: number;
  hours_remaining: number;
  last_compute_time: string | null;
}

export interface Admission {
  planId: string;
  plan: Plan;
  queue: QueueName;
}

const mb = (bytes: number) => bytes / (1024 * 1024);
/** Three significant digits: "312 MB", "1.25 MB", "0.000412 MB". */
const showMb = (bytes: number) => `${Number(mb(bytes).toPrecision(3))} MB`;

/**
 * Compute-side view of a user's account: what they have left, whether a job may be queued (size,
 * concurrency, balance), and reconciliation of usage from job records.
 */
export class ComputeAccounts {
  /**
   * Estimates (seconds) a user holds against the balance beyond their queued and running jobs — a study's
   * points that wait for a slot (they were admitted with the study). Each source adds its own.
   */
  readonly reservations: Array<(userId: string) => Promise<number>> = [];

  constructor(
    private readonly deps: {
      db: Db;
      ledger: UsageLedger;
      userPlans: UserPlans;
      metering: Metering;
      jobs: JobService;
      tokensPerHour: number;
      guestMaxModelMb: number;
    },
  ) {}

  async summary(userId: string): Promise<UsageSummary> {
    const effective = await this.deps.userPlans.planOf(userId);
    const balance = await this.deps.ledger.balance(userId, effective.periodStart);
    const limit = effective.plan.compute_hours_per_month;
    return {
      plan: effective.id,
      plan_name: effective.plan.name,
      status: effective.status,
      period_start: effective.periodStart,
      current_period_end: effective.currentPeriodEnd,
      tokens_available: balance.tokensAvailable,
      tokens_used: balance.tokensUsed,
      tokens_purchased: balance.tokensPurchased,
      tokens_remaining: balance.tokensAvailable,
      compute_hours_used: balance.hoursUsed,
      compute_hours_limit: limit,
      hours_remaining: roundUnits(Math.max(0, limit - balance.hoursUsed)),
      last_compute_time: balance.lastComputeTime,
    };
  }

  /** Guests may mesh models up to GUEST_MAX_MODEL_MB; they cannot run analyses. */
  checkGuestModel(modelBytes: number): void {
    if (mb(modelBytes) > this.deps.guestMaxModelMb) {
      throw new HttpError(
        413,
        'model_too_large',
        `The model is ${showMb(modelBytes)}; visitors without an account can submit models up to ${this.deps.guestMaxModelMb} MB. Sign in or create an account for larger models.`,
      );
    }
  }

  /**
   * Decides whether a user's job may be queued, and on which queue. Refusals say which limit was hit
   * and how to raise it: 413 model size, 429 concurrent simulations, 402 balance below the estimate.
   */
  async admit(
    userId: string,
    job: {
      kind: 'meshing' | 'analysis';
      estimateSeconds: number;
      modelBytes: number;
      /**
       * A study: its points wait for a free slot instead of a 429 (the concurrency limit is applied as each
       * point is released), and the 402 names the study and its point count.
       */
      study?: { points: number };
    },
  ): Promise<Admission> {
    const effective = await this.deps.userPlans.planOf(userId);
    const { plan } = effective;
    const admission = { planId: effective.id, plan, queue: PlanCatalog.queueFor(plan) };
    if (mb(job.modelBytes) > plan.features.max_file_size_mb) {
      throw new HttpError(
        413,
        'model_too_large',
        `The model is ${showMb(job.modelBytes)}; the ${plan.name} plan allows up to ${plan.features.max_file_size_mb} MB per job. Use a coarser mesh, or choose a plan with a larger limit on the Billing page.`,
      );
    }
    if (job.kind !== 'analysis') return admission;

    const active = await this.deps.jobs.activeAnalysisOf(userId);
    const allowed = plan.features.concurrent_simulations;
    if (!job.study && active.count >= allowed) {
      throw new HttpError(
        429,
        'concurrency_limit',
        `You already have ${active.count} simulation${active.count === 1 ? '' : 's'} queued or running; the ${plan.name} plan allows ${allowed} at once. Wait for one to finish or cancel one, or upgrade your plan on the Billing page.`,
      );
    }

    const balance = await this.deps.ledger.balance(userId, effective.periodStart);
    const subscription = PlanCatalog.isSubscription(plan);
    const tokensPerHour = subscription ? plan.token_cost : this.deps.tokensPerHour;
    const allowanceHours = subscription ? Math.max(0, plan.compute_hours_per_month - balance.hoursUsed) : 0;
    const tokenHours = tokensPerHour > 0 ? balance.tokensAvailable / tokensPerHour : Number.POSITIVE_INFINITY;
    const waiting = (await Promise.all(this.reservations.map((r) => r(userId)))).reduce((a, b) => a + b, 0);
    const reservedHours = (active.estimateSeconds + waiting) / 3600;
    const capacityHours = allowanceHours + tokenHours - reservedHours;
    const estimateHours = job.estimateSeconds / 3600;
    if (capacityHours + 1e-9 < estimateHours) {
      const minutes = Math.ceil(job.estimateSeconds / 60);
      const reserved =
        reservedHours > 0
          ? ` (after the estimates of your ${active.count} queued or running job${active.count === 1 ? '' : 's'}${waiting > 0 ? ' and of the study points waiting for a slot' : ''})`
          : '';
      const have = subscription
        ? `you have ${Math.max(0, allowanceHours).toFixed(2)} compute-hours left this period and ${balance.tokensAvailable.toFixed(2)} tokens${reserved}`
        : `you have ${balance.tokensAvailable.toFixed(2)} tokens available${reserved}`;
      const need = subscription
        ? `${estimateHours.toFixed(2)} compute-hours`
        : `${(estimateHours * tokensPerHour).toFixed(2)} tokens`;
      throw new HttpError(
        402,
        'insufficient_balance',
        `Not enough balance to run this ${job.study ? `study of ${job.study.points} point${job.study.points === 1 ? '' : 's'}` : 'job'}: it is estimated at ${need} (about ${minutes} compute-minute${minutes === 1 ? '' : 's'}), and ${have}. Buy tokens on the Billing page, then submit again.`,
      );
    }
    return admission;
  }

  /**
   * Reconciles the ledger with the job records: any finished, chargeable job without its ledger row
   * is charged now. Idempotent: a second call finds nothing to add.
   */
  async syncUsage(userId: string): Promise<{ hours_added: number; jobs_reconciled: number }> {
    const { db, metering } = this.deps;
    const candidates = await db
      .selectFrom('jobs')
      .leftJoin('usage_ledger', (join) =>
        join.onRef('usage_ledger.source_id', '=', 'jobs.id').on('usage_ledger.source', '=', 'job'),
      )
      .selectAll('jobs')
      .where('jobs.owner_user_id', '=', userId)
      .where('jobs.status', 'in', ['completed', 'failed', 'cancelled'])
      .where('jobs.compute_seconds', 'is not', null)
      .where('usage_ledger.id', 'is', null)
      .execute();
    let hours = 0;
    let reconciled = 0;
    for (const job of candidates) {
      const charge = await db.transaction().execute(async (trx) => {
        const c = await metering.chargeJob(trx, job, {
          status: job.status,
          errorCode: job.error_code,
          seconds: job.compute_seconds ?? 0,
        });
        if (c.tokens > 0 || c.hours > 0) {
          await trx
            .updateTable('jobs')
            .set({ cost_tokens: c.tokens, cost_hours: c.hours })
            .where('id', '=', job.id)
            .execute();
        }
        return c;
      });
      if (charge.tokens > 0 || charge.hours > 0) {
        hours += (job.compute_seconds ?? 0) / 3600;
        reconciled++;
      }
    }
    return { hours_added: roundUnits(hours), jobs_reconciled: reconciled };
  }
}
