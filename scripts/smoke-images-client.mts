// The client half of scripts/smoke-images.sh: against a running Fieldline at ORIGIN, checks that health
// reports a working engine, then registers an account, submits a parallel-plate capacitor (3 V across
// 1 mm) and waits for it; the field must be V/d within 1 %. Exits non-zero with the reason otherwise.
import { registerApiUser } from '../e2e/support/api-user.ts';
import { submitPlateCapacitor } from '../e2e/support/plate-job.ts';

const origin = process.argv[2] ?? 'http://127.0.0.1:8080';
const fail = (why: string): never => {
  console.error(`smoke client: ${why}`);
  process.exit(1);
};

const health = (await (await fetch(`${origin}/api/fea/health`)).json()) as {
  engine?: { available?: boolean; versions?: Record<string, string>; error?: string };
};
if (!health.engine?.available) fail(`engine not available: ${JSON.stringify(health.engine)}`);
console.log(`smoke client: engine available, NGSolve ${health.engine?.versions?.ngsolve}`);

const gap = 0.001;
const volts = 3;
const cookie = await registerApiUser(origin);
const submit = await submitPlateCapacitor(origin, cookie, [0.005, 0.005, gap], [2, 2, 2], volts);
if (submit.status !== 200) fail(`submit answered ${submit.status}: ${await submit.text()}`);
const { job_id } = (await submit.json()) as { job_id: string };
const started = Date.now();
let body: {
  status: string;
  error?: string;
  results?: { field_magnitudes: { e_magnitudes: { data: number[] } } };
};
do {
  await new Promise((r) => setTimeout(r, 200));
  body = await (await fetch(`${origin}/api/fea/status/${job_id}`, { headers: { cookie } })).json();
  if (Date.now() - started > 120_000) fail(`job ${job_id} still ${body.status} after 120 s`);
} while (body.status === 'queued' || body.status === 'running');
if (body.status !== 'completed') fail(`job ${job_id} ${body.status}: ${body.error}`);
const e = body.results?.field_magnitudes.e_magnitudes.data ?? [];
const worst = Math.max(...e.map((v) => Math.abs(v - volts / gap) / (volts / gap)));
if (!(e.length > 0 && worst < 0.01)) fail(`field off: ${e.length} values, worst relative error ${worst}`);
console.log(
  `smoke client: job ${job_id} completed in ${((Date.now() - started) / 1000).toFixed(1)} s, |E| = V/d within ${worst.toExponential(1)}`,
);
