import type { FastifyInstance } from 'fastify';
import { tinyJob } from './compute.ts';

export interface StudyPointBody {
  index: number;
  parameters: Record<string, number>;
  status: string;
  job_id: string | null;
  mesh_job_id: string | null;
  outputs: Record<string, number | null>;
  output_errors?: Record<string, string>;
  error: string | null;
  tetrahedra: number | null;
  mesh_hash: string | null;
}

export interface StudyBody {
  study_id: string;
  status: string;
  points: StudyPointBody[];
  progress: { total: number; completed: number; failed: number; cancelled: number; [k: string]: number };
  convergence: Record<string, unknown> | null;
  remeshes: boolean;
}

export function createStudy(app: FastifyInstance, cookie: string, payload: object, sleepSeconds?: number) {
  const headers: Record<string, string> = { cookie };
  if (sleepSeconds) headers['x-test-sleep-seconds'] = String(sleepSeconds);
  return app.inject({ method: 'POST', url: '/api/fea/studies', payload, headers });
}

export async function getStudy(app: FastifyInstance, cookie: string, id: string): Promise<StudyBody> {
  const res = await app.inject({ method: 'GET', url: `/api/fea/studies/${id}`, headers: { cookie } });
  if (res.statusCode !== 200) throw new Error(`GET study ${id}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Polls a study until every point has finished. */
export async function waitForStudy(app: FastifyInstance, cookie: string, id: string, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await getStudy(app, cookie, id);
    const p = body.progress;
    if (body.status !== 'running' && p.total === p.completed + p.failed + p.cancelled) return body;
    if (Date.now() > deadline) throw new Error(`study ${id} did not finish: ${JSON.stringify(p)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The tiny electrostatic job (6 tetrahedra) swept over its top plate's voltage: `n` points. */
export function voltageStudy(n: number, extra: Record<string, unknown> = {}) {
  const job = tinyJob();
  return {
    name: `voltage sweep of ${n}`,
    mesh_data: job.mesh_data,
    config: job.config,
    parameters: [{ path: 'dirichletFaceConditions[1].voltage', from: 1, to: n, steps: n }],
    combine: 'grid',
    outputs: ['stored_energy_J', 'capacitance_F'],
    ...extra,
  };
}
