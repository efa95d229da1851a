import type { FetchLike } from '../../src/api/http.ts';
import { FeaApi } from '../../src/environment/api/fea-api.ts';
import { createEnvironmentStore } from '../../src/environment/state/environment-state.ts';
import type { WorkflowDeps } from '../../src/environment/workflows/deps.ts';

export type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

export const json = (body: unknown, status = 200): Reply => ({ status, body });

/** A scripted server: each route answers from its queue (the last answer repeats). */
export class FakeServer {
  readonly calls: { path: string; init?: RequestInit }[] = [];
  private routes = new Map<string, Reply[]>();

  on(prefix: string, ...replies: Reply[]): this {
    this.routes.set(prefix, [...(this.routes.get(prefix) ?? []), ...replies]);
    return this;
  }

  count(prefix: string): number {
    return this.calls.filter((c) => c.path.startsWith(prefix)).length;
  }

  fetch: FetchLike = async (path, init) => {
    this.calls.push({ path, init });
    const key = [...this.routes.keys()]
      .filter((k) => path.startsWith(k))
      .sort((a, b) => b.length - a.length)[0];
    const queue = key ? this.routes.get(key) : undefined;
    if (!queue || queue.length === 0) return new Response('not found', { status: 404 });
    const reply = queue.length > 1 ? (queue.shift() as Reply) : (queue[0] as Reply);
    if (reply instanceof Error) throw reply;
    const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
    return new Response(text, { status: reply.status, headers: reply.headers });
  };
}

export interface ViewerCall {
  kind: 'load' | 'call';
  name?: string;
  payload?: unknown;
}

export function makeDeps(server: FakeServer, overrides: Partial<WorkflowDeps> = {}) {
  const store = createEnvironmentStore();
  const viewerCalls: ViewerCall[] = [];
  const waits: number[] = [];
  const deps: WorkflowDeps = {
    store,
    api: new FeaApi(server.fetch),
    viewer: {
      loadMesh: (payload) => viewerCalls.push({ kind: 'load', payload }),
      call: (name, ...args) => viewerCalls.push({ kind: 'call', name, payload: args }),
    },
    convert: async () => {
      throw new Error('convert not scripted');
    },
    wait: async (ms) => {
      waits.push(ms);
    },
    auth: { isSignedIn: async () => true, sendToLogin: async () => undefined },
    ...overrides,
  };
  return { deps, store, viewerCalls, waits };
}

/** A two-tetrahedron volume mesh. */
export const tinyVolume = {
  vertices: [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 1, 1],
  ] as [number, number, number][],
  faces: [
    [0, 1, 2],
    [0, 1, 3],
    [0, 2, 3],
    [1, 2, 4],
    [1, 3, 4],
    [2, 3, 4],
  ],
  tetrahedra: [
    [0, 1, 2, 3],
    [1, 2, 3, 4],
  ],
};

export const completedResults = {
  solver_info: { elements: 2, matrix_size: 5, non_zeros: 13, frequency: 0 },
  computation_time: 0.5,
  ...tinyVolume,
  field_magnitudes: { e_magnitudes: { format: 'dense', data: [1, 2, 3, 4, 5], size: 5 } },
  efields: {
    format: 'dense',
    data: { '0': [1, 0, 0], '1': [0, 2, 0], '2': [0, 0, 3], '3': [4, 0, 0], '4': [0, 0, 5] },
    size: 5,
  },
  quantities: { capacitance_F: 2.2e-13, stored_energy_J: 1.1e-13 },
};
