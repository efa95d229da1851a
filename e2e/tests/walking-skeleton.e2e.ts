import { expect, it } from 'vitest';
import { registerApiUser } from '../support/api-user.ts';
import { submitPlateCapacitor } from '../support/plate-job.ts';
import { serverOnly } from '../support/stand.ts';

const stand = serverOnly();

it('goes submit → poll → completed through the real server, queue and engine', async () => {
  const gap = 0.001;
  const volts = 3;
  const cookie = await registerApiUser(stand.server.origin);
  const submit = await submitPlateCapacitor(
    stand.server.origin,
    cookie,
    [0.005, 0.005, gap],
    [2, 2, 2],
    volts,
  );
  expect(submit.status).toBe(200);
  const { job_id } = (await submit.json()) as { job_id: string };

  const states: string[] = [];
  let body: {
    status: string;
    error?: string;
    results?: { field_magnitudes: { e_magnitudes: { data: number[] } } };
  };
  do {
    await new Promise((r) => setTimeout(r, 200));
    const res = await fetch(`${stand.server.origin}/api/fea/status/${job_id}`, { headers: { cookie } });
    body = await res.json();
    if (states.at(-1) !== body.status) states.push(body.status);
  } while (body.status === 'queued' || body.status === 'running');

  expect(body.status, body.error).toBe('completed');
  const e = body.results?.field_magnitudes.e_magnitudes.data ?? [];
  expect(e.length).toBeGreaterThan(0);
  for (const value of e) expect(Math.abs(value - volts / gap) / (volts / gap)).toBeLessThan(0.01);
});

it('answers the health check with the engine versions', async () => {
  const health = await (await fetch(`${stand.server.origin}/api/fea/health`)).json();
  expect(health.engine.available).toBe(true);
  expect(health.engine.versions.ngsolve).toBe('6.2.2608');
});
