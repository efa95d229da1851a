import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';

export interface Answer {
  status: number;
  text: string;
  ms: number;
}

/** No reply within this is a hang (the issue's limit). */
export const HANG_MS = 10_000;

/** Sends one request; a timeout or a dropped connection is reported as status 0, not thrown. */
export async function sendWithin(url: string, init: RequestInit): Promise<Answer> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(HANG_MS) });
    return { status: res.status, text: await res.text(), ms: performance.now() - t0 };
  } catch (err) {
    return { status: 0, text: String(err), ms: performance.now() - t0 };
  }
}

/** Counts answers per kind of input; prints the table the issue asks for. */
export class FuzzTally {
  readonly byKind = new Map<string, { n: number; statuses: Map<number, number> }>();
  total = 0;
  serverErrors = 0;
  hangs = 0;
  clientErrors = 0;
  slowestMs = 0;

  constructor(readonly target: string) {}

  record(kind: string, a: Answer): void {
    this.total++;
    if (a.status === 0) this.hangs++;
    else if (a.status >= 500) this.serverErrors++;
    else if (a.status >= 400) this.clientErrors++;
    this.slowestMs = Math.max(this.slowestMs, a.ms);
    const k = this.byKind.get(kind) ?? { n: 0, statuses: new Map() };
    k.n++;
    k.statuses.set(a.status, (k.statuses.get(a.status) ?? 0) + 1);
    this.byKind.set(kind, k);
  }

  print(extra: Record<string, unknown>): void {
    const lines = [...this.byKind.entries()].map(
      ([kind, k]) =>
        `  ${kind.padEnd(34)} ${String(k.n).padStart(5)}  ${[...k.statuses.entries()].map(([s, n]) => `${s}×${n}`).join(' ')}`,
    );
    console.log(
      [
        `fuzz ${this.target}: ${this.total} requests, ${this.clientErrors} × 4xx, ${this.serverErrors} × 5xx, ${this.hangs} hangs (> ${HANG_MS / 1000} s or dropped), slowest ${Math.round(this.slowestMs)} ms`,
        ...lines,
        `  ${Object.entries(extra)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(' ')}`,
      ].join('\n'),
    );
  }
}

/** Rows and files a run left in a server's data directory: jobs, uploads, stored objects, scratch and work files. */
export async function leftBehind(
  dataDir: string,
): Promise<{ jobs: number; uploads: number; files: string[] }> {
  const db = new Database(join(dataDir, 'fieldline.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const count = (table: string) =>
      (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const files: string[] = [];
    for (const sub of ['objects', 'tmp', 'work']) {
      const dir = join(dataDir, sub);
      if (!existsSync(dir)) continue;
      for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
        if (!e.isDirectory()) files.push(relative(dataDir, join(e.parentPath, e.name)));
    }
    return { jobs: count('jobs'), uploads: count('uploads'), files };
  } finally {
    db.close();
  }
}
