import type { AnalysisConfig } from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chooseRanks,
  coresCharged,
  independentSolves,
  rankRequest,
  threadsPerRank,
} from '../../src/jobs/mpi-ranks.ts';
import { queuedJob } from '../support/compute.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// MPI ranks of a full-wave job (docs/distributed.md) and their charge per core-hour (docs/billing.md).
const GB = 1024 ** 3;
const sweep = (extra: Record<string, unknown> = {}) =>
  ({
    analysisType: 'em',
    frequency: 10e9,
    useWavePorts: true,
    wavePorts: [{ portID: 1 }, { portID: 2 }],
    calculateSParameters: true,
    sParamFreqMin: 8e9,
    sParamFreqMax: 12e9,
    sParamNumPoints: 5,
    ...extra,
  }) as unknown as AnalysisConfig;

describe('ranks a job may use', () => {
  it('counts the independent solves of a uniform full-wave sweep, and one for anything else', () => {
    expect(independentSolves(sweep())).toBe(10); // 10 GHz is a sweep point: 5 frequencies × 2 ports
    expect(independentSolves(sweep({ frequency: 9.5e9 }))).toBe(12); // + the field frequency
    expect(independentSolves(sweep({ sParamSweepType: 'adaptive', sParamNumPoints: 101 }))).toBe(1);
    expect(independentSolves(sweep({ calculateSParameters: false }))).toBe(2); // one frequency, 2 ports
    expect(independentSolves({ analysisType: 'structural' } as unknown as AnalysisConfig)).toBe(1);
  });

  it('caps the ranks by the solves, the plan and the memory every rank needs', () => {
    // 10 solves, plan allows 3, 8 GB job limit and 1.5 GB per rank (5 fit): 3.
    expect(rankRequest(sweep(), 1.5 * GB, 8192, 3).max_ranks).toBe(3);
    // 3 GB per rank: only 2 fit in 8 GB, whatever the plan allows.
    expect(rankRequest(sweep(), 3 * GB, 8192, 8)).toMatchObject({ max_ranks: 2, independent_solves: 10 });
    // Never below one rank, even when one barely fits.
    expect(rankRequest(sweep(), 9 * GB, 8192, 8).max_ranks).toBe(1);
    // The worker's MPI_SLOTS bound it again; no request (older jobs): one process.
    expect(chooseRanks({ max_ranks: 3, memory_bytes_per_rank: GB, independent_solves: 10 }, 2)).toBe(2);
    expect(chooseRanks({ max_ranks: 3, memory_bytes_per_rank: GB, independent_solves: 10 }, 8)).toBe(3);
    expect(chooseRanks(null, 8)).toBe(1);
  });

  it('charges ranks × threads per rank cores; FIELDLINE_THREADS unset counts one thread per rank', () => {
    expect(threadsPerRank({})).toBe(1);
    expect(threadsPerRank({ FIELDLINE_THREADS: '2' })).toBe(2);
    expect(coresCharged(2, 1)).toBe(2);
    expect(coresCharged(3, 2)).toBe(6);
    expect(coresCharged(0, 0)).toBe(1);
  });
});

describe('the charge of a job on several cores', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WELCOME_GRANT_TOKENS: '0' }, { startQueue: false });
  });
  afterAll(async () => t.close());

  it('is wall time × cores in core-hours, in the ledger and the job row', async () => {
    const charged = async (cores: number | undefined) => {
      const { job } = await queuedJob(t, 1);
      const claim = await t.ctx.jobs.claim(job.id, 'w1', 60);
      if (!claim.claimed) throw new Error('not claimed');
      const t0 = Date.now();
      // 36 s of wall time = 0.01 h.
      const timing = { startedAt: t0 - 36_000, finishedAt: t0, ...(cores ? { cores } : {}) };
      expect(await t.ctx.jobs.finish(claim.job, 'w1', { status: 'completed', files: [] }, timing)).toBe(true);
      const [entry] = await t.ctx.db
        .selectFrom('usage_ledger')
        .selectAll()
        .where('job_id', '=', job.id)
        .execute();
      const row = await t.ctx.jobs.get(job.id);
      return { entry, row };
    };
    const one = await charged(undefined);
    expect(one.entry?.tokens).toBeCloseTo(-0.01, 6);
    expect(one.entry?.compute_seconds).toBeCloseTo(36, 6);
    // 2 MPI ranks × 2 threads: 4 cores for 36 s = 0.04 core-hours (1 token per hour).
    const four = await charged(4);
    expect(four.entry?.tokens).toBeCloseTo(-0.04, 6);
    expect(four.entry?.compute_seconds).toBeCloseTo(144, 6);
    expect(four.entry?.description).toContain('0.60 min × 4 cores');
    expect(four.row?.compute_seconds).toBeCloseTo(36, 6); // the job's own time stays wall time
    expect(four.row?.cost_tokens).toBeCloseTo(0.04, 6);
  });
});
