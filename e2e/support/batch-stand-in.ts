import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchClient, DescribeJobsCommand, type JobStatus, ListJobsCommand } from '@aws-sdk/client-batch';
import { REPO_ROOT } from './server.ts';

export interface BatchRun {
  jobId: string;
  batchJobId: string;
  code: number | null;
  out: string;
  startedAt: number;
  stoppedAt: number;
}

const STATES: JobStatus[] = ['SUBMITTED', 'PENDING', 'RUNNABLE', 'STARTING', 'RUNNING', 'SUCCEEDED'];

/**
 * The compute environment behind moto's docker-less Batch: moto accepts SubmitJob but cannot start the
 * worker container, so this loop does what Batch would — it finds each new Batch job on the queues and
 * runs the job definition's command, `fieldline batch-run <jobId>`, with AWS_BATCH_JOB_ID set, one at a
 * time (a one-vCPU compute environment). Everything else — SubmitJob, DescribeJobs, the S3 objects, the
 * DB — is the real backend's. moto's Batch stamps a job started and stopped the moment it is submitted;
 * `endpoint` (give it to the server as BATCH_ENDPOINT) is moto behind a proxy that reports, in
 * DescribeJobs, the times the stand-in's containers really ran, as Batch would.
 */
/**
 * The container's command: `fieldline batch-run <jobId>` from this checkout, or, with BATCH_WORKER_IMAGE
 * set (scripts/smoke-images.sh builds one), the worker image itself run by CONTAINER_CLI (podman or docker)
 * on the host network with the job's environment and the server's DATA_DIR mounted (the SQLite file and
 * secrets the e2e server shares with its workers), as Batch would run the job definition.
 */
function workerCommand(jobId: string, env: Record<string, string>): [string, string[]] {
  const image = process.env.BATCH_WORKER_IMAGE;
  if (!image) return [process.execPath, ['--import', 'tsx', 'server/src/main.ts', 'batch-run', jobId]];
  const mounts = env.DATA_DIR ? ['-v', `${env.DATA_DIR}:${env.DATA_DIR}`] : [];
  const vars = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  return [
    process.env.CONTAINER_CLI ?? 'podman',
    ['run', '--rm', '--network', 'host', '--user', '0:0', ...mounts, ...vars, image, 'batch-run', jobId],
  ];
}

export function startBatchStandIn(opts: {
  endpoint: string;
  region: string;
  queues: string[];
  env: Record<string, string>;
}) {
  const client = new BatchClient({ region: opts.region, endpoint: opts.endpoint });
  const seen = new Set<string>();
  const runs: BatchRun[] = [];
  let stopped = false;
  let current: ChildProcess | null = null;

  const run = (jobId: string, batchJobId: string) =>
    new Promise<BatchRun>((resolve) => {
      const startedAt = Date.now();
      const [program, args] = workerCommand(jobId, { ...opts.env, AWS_BATCH_JOB_ID: batchJobId });
      const child = spawn(program, args, {
        cwd: REPO_ROOT,
        env: { ...process.env, ...opts.env, AWS_BATCH_JOB_ID: batchJobId },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      current = child;
      let out = '';
      child.stdout?.on('data', (b) => {
        out += b;
      });
      child.stderr?.on('data', (b) => {
        out += b;
      });
      child.once('exit', (code) => {
        current = null;
        resolve({ jobId, batchJobId, code, out, startedAt, stoppedAt: Date.now() });
      });
    });

  const newJobs = async () => {
    const ids: string[] = [];
    for (const jobQueue of opts.queues)
      for (const jobStatus of STATES) {
        const page = await client.send(new ListJobsCommand({ jobQueue, jobStatus }));
        for (const s of page.jobSummaryList ?? []) if (s.jobId && !seen.has(s.jobId)) ids.push(s.jobId);
      }
    if (ids.length === 0) return [];
    const described = await client.send(new DescribeJobsCommand({ jobs: ids }));
    return (described.jobs ?? []).sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0));
  };

  const loop = (async () => {
    while (!stopped) {
      for (const job of await newJobs()) {
        if (stopped || !job.jobId) break;
        seen.add(job.jobId);
        const fieldlineJob = job.parameters?.jobId;
        if (!fieldlineJob) continue;
        runs.push(await run(fieldlineJob, job.jobId));
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  })();

  const timesOf = (batchJobId: string) => runs.find((r) => r.batchJobId === batchJobId);
  const proxy = createServer((req, res) => {
    const upstream = new URL(opts.endpoint);
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          if (req.url?.toLowerCase().startsWith('/v1/describejobs') && answer.statusCode === 200) {
            const parsed = JSON.parse(body.toString()) as {
              jobs?: { jobId: string; startedAt?: number; stoppedAt?: number }[];
            };
            for (const job of parsed.jobs ?? []) {
              const ran = timesOf(job.jobId);
              if (ran) Object.assign(job, { startedAt: ran.startedAt, stoppedAt: ran.stoppedAt });
            }
            body = Buffer.from(JSON.stringify(parsed));
          }
          const headers = { ...answer.headers, 'content-length': String(body.length) };
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    req.pipe(forward);
  });
  const listening = new Promise<string>((resolve) =>
    proxy.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`)),
  );

  return {
    runs,
    /** moto behind the proxy: the endpoint the server should use. */
    endpoint: listening,
    async stop() {
      stopped = true;
      (current as ChildProcess | null)?.kill('SIGTERM');
      await loop;
      await new Promise((r) => proxy.close(r));
    },
  };
}
