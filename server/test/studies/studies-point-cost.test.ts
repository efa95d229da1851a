import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { storedReplyKey } from '../../src/fea/status-replies.ts';
import { EncryptedStorage } from '../../src/storage/encrypted-storage.ts';
import { sweepPointInput } from '../../src/studies/point-input.ts';
import { ResultsReader } from '../../src/studies/results-reader.ts';
import { pollUntil, submit, tinyJob } from '../support/compute.ts';
import { createStudy, voltageStudy, waitForStudy } from '../support/studies.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { registerTestUser } from '../support/users.ts';

/**
 * What a study's point costs the server besides its run (issue 37 "Performance", bench/studies): a sweep
 * point's input is spliced from the stored mesh's text (no parse, no re-serialising, no re-hashing per
 * point), and its completed status reply is built when someone opens it, not as it completes (a study
 * collects its outputs from the results; building the reply parses, serialises, compresses and seals them).
 * Nor is anything read back from storage that this process has just written: the study's model is read
 * once, not per point; a point's input is staged in from the bytes just stored, and its results.json is
 * summarised from the bytes just stored. Real engine, real SQLite, real encrypted storage.
 */
describe('a sweep point’s input, spliced from the stored mesh', () => {
  const mesh_data = { ...tinyJob().mesh_data, units: 'mm' };
  const base = Buffer.from(JSON.stringify({ mesh_data }));
  const config = { ...tinyJob().config, frequency: 0 };

  it('is byte for byte the JSON of {mesh_data, config, test_hooks}', () => {
    expect(sweepPointInput(base, config)?.toString('utf8')).toBe(JSON.stringify({ mesh_data, config }));
    const hooks = { sleep_seconds: 2 };
    expect(sweepPointInput(base, config, hooks)?.toString('utf8')).toBe(
      JSON.stringify({ mesh_data, config, test_hooks: hooks }),
    );
  });

  it('refuses a stored base of another shape (the caller builds the input the slow way)', () => {
    expect(sweepPointInput(Buffer.from(JSON.stringify({ mesh: mesh_data })), config)).toBeNull();
    expect(sweepPointInput(Buffer.from(JSON.stringify({ mesh_data })).subarray(0, 40), config)).toBeNull();
    expect(sweepPointInput(Buffer.from(''), config)).toBeNull();
  });
});

describe.skipIf(process.env.TEST_DATABASE_URL)('a sweep’s points on the real engine', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp({ FIELDLINE_THREADS: '1' });
    cookie = (await registerTestUser(t.app)).cookie;
  });
  afterAll(async () => {
    await t?.close();
  });

  const storedReply = (jobId: string) => t.ctx.jobs.files.store.get(storedReplyKey(jobId));

  it('build no input on the results reader, and no status reply until one is opened', async () => {
    const baseInput = vi.spyOn(ResultsReader.prototype, 'baseInput');
    try {
      const res = await createStudy(t.app, cookie, voltageStudy(3));
      expect(res.statusCode, res.body).toBe(201);
      const done = await waitForStudy(t.app, cookie, res.json().study_id);
      expect(done.points.map((p) => p.status)).toEqual(['completed', 'completed', 'completed']);
      expect(baseInput).not.toHaveBeenCalled();

      // each point's input: the study's mesh as given, and the point's own value at the swept path
      for (const [i, p] of done.points.entries()) {
        const job = await t.ctx.db
          .selectFrom('jobs')
          .selectAll()
          .where('id', '=', p.job_id as string)
          .executeTakeFirstOrThrow();
        const input = JSON.parse(
          ((await t.ctx.jobs.files.store.get(job.input_location)) as Buffer).toString('utf8'),
        );
        expect(input.mesh_data).toEqual(voltageStudy(3).mesh_data);
        expect(input.config.dirichletFaceConditions[1].voltage).toBe(i + 1);
        expect(p.outputs.stored_energy_J).toBeGreaterThan(0);
      }

      // A plain job's reply is built as it completes; by the time it is stored, the points' would be too.
      const plain = await submit(t.app, cookie);
      expect(plain.statusCode, plain.body).toBe(200);
      const plainId = plain.json().job_id as string;
      await pollUntil(() => storedReply(plainId), 60_000, 50);
      for (const p of done.points) expect(await storedReply(p.job_id as string)).toBeNull();

      // Opening a point builds its reply then, with its results.
      const status = await t.app.inject({
        method: 'GET',
        url: `/api/fea/status/${done.points[1]?.job_id}`,
        headers: { cookie },
      });
      expect(status.statusCode).toBe(200);
      const body = status.json();
      expect(body.status).toBe('completed');
      expect(body.results.quantities.stored_energy_J).toBe(done.points[1]?.outputs.stored_energy_J);
      expect(await storedReply(done.points[1]?.job_id as string)).not.toBeNull();
    } finally {
      baseInput.mockRestore();
    }
  }, 120_000);

  it('read back from storage neither the study’s model per point nor a point’s input or results', async () => {
    const reads: string[] = [];
    const get = EncryptedStorage.prototype.get;
    const spy = vi.spyOn(EncryptedStorage.prototype, 'get').mockImplementation(function (
      this: EncryptedStorage,
      key: string,
    ) {
      reads.push(key);
      return get.call(this, key);
    });
    let done: Awaited<ReturnType<typeof waitForStudy>>;
    try {
      const res = await createStudy(t.app, cookie, voltageStudy(4));
      expect(res.statusCode, res.body).toBe(201);
      done = await waitForStudy(t.app, cookie, res.json().study_id);
    } finally {
      spy.mockRestore();
    }
    expect(done.points.map((p) => p.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(reads.filter((k) => k.endsWith('/base.json'))).toHaveLength(1);
    const pointReads = reads.filter((k) => done.points.some((p) => k.startsWith(`jobs/${p.job_id}/`)));
    expect(pointReads).toEqual([]);
    // the outputs are the stored results' own
    for (const p of done.points) {
      const job = await t.ctx.jobs.get(p.job_id as string);
      const stored = JSON.parse(
        ((await t.ctx.jobs.files.store.get(job?.result_location as string)) as Buffer).toString('utf8'),
      );
      expect(p.outputs.stored_energy_J).toBe(stored.quantities.stored_energy_J);
      expect(p.outputs.stored_energy_J).toBeGreaterThan(0);
    }
  }, 120_000);
});
