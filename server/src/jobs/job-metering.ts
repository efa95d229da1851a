import type { Kysely } from 'kysely';
import type { Database, JobsTable } from '../db/schema.ts';

/** What a finished job was charged: tokens, and hours out of a subscription's allowance. */
export interface JobCharge {
  tokens: number;
  hours: number;
}

/**
 * How the jobs have a finished run charged, owned here so jobs/ does not depend on billing/: billing's
 * Metering implements it, and the composition root (src/compute.ts) hands it to the JobService.
 */
export interface JobMetering {
  /** Records the charge for a finished job inside `trx` (at most once per job); returns what was charged. */
  chargeJob(
    trx: Kysely<Database>,
    job: Pick<JobsTable, 'id' | 'owner_user_id' | 'kind' | 'plan_id' | 'analysis_type'> &
      Partial<Pick<JobsTable, 'api_token_name'>>,
    /** `seconds` of wall time on `cores` cores (MPI ranks × threads; default 1): charged per core-hour. */
    final: { status: JobsTable['status']; errorCode: string | null; seconds: number; cores?: number },
  ): Promise<JobCharge>;
}
