import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobStream } from '../storage/blob-store.ts';
import type { EncryptedStorage } from '../storage/encrypted-storage.ts';

/** The length of an array in a `readSummary` result, summarised (`{ $array: n }`) or not; else null. */
export function lengthOf(value: unknown): number | null {
  if (Array.isArray(value)) return value.length;
  const n = (value as { $array?: unknown } | null)?.$array;
  return typeof n === 'number' ? n : null;
}

export interface StoredFile {
  name: string;
  bytes: number;
}

const INPUT_NAME = 'job.json';
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/;

/**
 * A job's files in object storage (`jobs/<id>/job.json`, `jobs/<id>/out/<name>`), and their staging
 * to a plaintext working directory on the worker that runs the engine — the engine reads and writes
 * plain files, the store only ever sees sealed bytes.
 */
export class JobStorage {
  constructor(
    readonly store: EncryptedStorage,
    private readonly workDir: string,
  ) {}

  inputKey(jobId: string): string {
    return `jobs/${jobId}/${INPUT_NAME}`;
  }

  resultKey(jobId: string, name: string): string {
    return `jobs/${jobId}/out/${name}`;
  }

  /** The engine's working directory for one attempt on this machine. */
  localDir(jobId: string, attempt: number): string {
    return join(this.workDir, `${jobId}-${attempt}`);
  }

  async putInput(jobId: string, input: unknown): Promise<string> {
    const key = this.inputKey(jobId);
    await this.store.put(key, Buffer.isBuffer(input) ? input : Buffer.from(JSON.stringify(input)));
    return key;
  }

  /** Another input file for the engine (`jobs/<id>/in/<name>`), staged in beside job.json. */
  async putInputFile(jobId: string, name: string, body: Buffer): Promise<void> {
    if (!SAFE_NAME.test(name) || name === INPUT_NAME) throw new Error(`unsafe input file name: ${name}`);
    await this.store.put(`jobs/${jobId}/in/${name}`, body);
  }

  /** Writes the job's input into a fresh local directory for the engine. */
  async stageIn(jobId: string, attempt: number): Promise<string> {
    const dir = this.localDir(jobId, attempt);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const input = await this.store.get(this.inputKey(jobId));
    if (!input) throw new Error(`the input of job ${jobId} is missing from storage`);
    await writeFile(join(dir, INPUT_NAME), input, { mode: 0o600 });
    for (const key of await this.store.list(`jobs/${jobId}/in`)) {
      const name = key.slice(key.lastIndexOf('/') + 1);
      const body = await this.store.get(key);
      if (body && SAFE_NAME.test(name)) await writeFile(join(dir, name), body, { mode: 0o600 });
    }
    return dir;
  }

  /** Uploads what the engine wrote (everything but the input) and returns the manifest. */
  async stageOut(jobId: string, dir: string): Promise<StoredFile[]> {
    const staged = new Set(
      (await this.store.list(`jobs/${jobId}/in`)).map((k) => k.slice(k.lastIndexOf('/') + 1)),
    );
    const names = (await readdir(dir)).filter(
      (n) => n !== INPUT_NAME && !staged.has(n) && SAFE_NAME.test(n) && !n.endsWith('.tmp'),
    );
    const files: StoredFile[] = [];
    for (const name of names.sort()) {
      if (!(await stat(join(dir, name))).isFile()) continue;
      const body = await readFile(join(dir, name));
      const bytes = body.length;
      // Moved to the worker thread that seals it (a results file may be tens of MB): not read again here.
      await this.store.put(this.resultKey(jobId, name), body, { giveAway: true });
      files.push({ name, bytes });
    }
    return files;
  }

  async cleanLocal(dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true });
  }

  /**
   * Removes working directories a killed process left behind (SIGKILL gives it no chance to clean up),
   * except those `inUse(jobId, attempt)` says a live process may still be running. Returns how many went.
   */
  async sweepWorkDir(inUse: (jobId: string, attempt: number) => Promise<boolean>): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.workDir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const m = /^(.+)-(\d+)$/.exec(name);
      if (m && (await inUse(m[1] as string, Number(m[2])))) continue;
      await rm(join(this.workDir, name), { recursive: true, force: true });
      removed++;
    }
    return removed;
  }

  async readResult(jobId: string, name: string): Promise<Buffer | null> {
    if (!SAFE_NAME.test(name)) return null;
    return this.store.get(this.resultKey(jobId, name));
  }

  /**
   * A result file as a stream of its plaintext, for a download (EncryptedStorage.getStream): the reply
   * reads it from storage as its client reads, never holding it whole. Null when it does not exist.
   */
  streamResult(jobId: string, name: string): Promise<BlobStream | null> {
    if (!SAFE_NAME.test(name)) return Promise.resolve(null);
    return this.store.getStream(this.resultKey(jobId, name));
  }

  /**
   * A stored JSON object (a results file) read on the storage worker thread, so that a file of tens of MB
   * does not stall the server (issue 37): the top-level members named in `whole` come back as they are;
   * in the others, every array longer than `maxItems` comes back as `{ $array: <its length> }` (see
   * `lengthOf`), so a reader sees the catalogue, quantities and shapes without the field data. For a
   * study's per-point outputs: `readSummary(key, { whole: ['quantities'] })`.
   */
  async readSummary(
    key: string,
    opts: { whole?: string[]; maxItems?: number } = {},
  ): Promise<Record<string, unknown>> {
    const summary = await this.store.onWorker<Record<string, unknown>>('summary', key, {
      whole: opts.whole ?? [],
      maxItems: opts.maxItems ?? 64,
    });
    if (!summary) throw new Error(`stored object ${key} is missing`);
    return summary;
  }

  /** Deletes what an attempt stored of its results (a half set, when storing the rest failed). */
  removeResults(jobId: string): Promise<number> {
    return this.store.deletePrefix(`jobs/${jobId}/out`);
  }

  /** Deletes the job's input and results; returns how many objects were deleted. */
  removeAll(jobId: string): Promise<number> {
    return this.store.deletePrefix(`jobs/${jobId}`);
  }
}
