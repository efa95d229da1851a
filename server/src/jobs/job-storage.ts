import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobStream } from '../storage/blob-store.ts';
import { type EncryptedStorage, OFFLOAD_BYTES } from '../storage/encrypted-storage.ts';

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
const RESULTS_NAME = 'results.json';
/** results.json files kept between their run's end and their reader (`takeResults`) */
const KEPT_RESULTS_BYTES = 16 * 1024 * 1024;
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/;

/** A job's input as this process wrote it: job.json's bytes and the other input files. */
interface KeptInput {
  input: Buffer;
  files: { name: string; body: Buffer }[];
  bytes: number;
}

/**
 * A job's files in object storage (`jobs/<id>/job.json`, `jobs/<id>/out/<name>`), and their staging
 * to a plaintext working directory on the worker that runs the engine — the engine reads and writes
 * plain files, the store only ever sees sealed bytes.
 */
export class JobStorage {
  /** Inputs kept for `stageIn`, oldest first; see `keepInput`. */
  private readonly kept = new Map<string, KeptInput>();
  private keptBytes = 0;
  /** Input file names staged into each working directory (stageOut leaves them out). */
  private readonly stagedNames = new Map<string, Set<string>>();
  /** results.json of runs this process stored, for `takeResults`, oldest first */
  private readonly keptResults = new Map<string, Buffer>();
  private keptResultsBytes = 0;
  /**
   * Whether this process will read a job's results.json once its run is recorded (a study point's outputs):
   * then `stageOut` keeps it for `takeResults`. Listeners are added by those readers.
   */
  readonly resultsWanted: ((jobId: string) => boolean)[] = [];

  constructor(
    readonly store: EncryptedStorage,
    private readonly workDir: string,
    /**
     * How many bytes of job inputs this process keeps in memory for its own stage-in (the embedded queue:
     * the process that writes a job's input also runs it); 0 (workers, other backends): none.
     */
    private readonly keepInputBytes = 0,
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

  /**
   * Keeps the plaintext of a job's input, just stored (sealed) and its row written, for this process's own
   * `stageIn`: a study point's input (the whole mesh) was otherwise read back and opened again a few ms
   * later, every point (bench/studies). Bounded by `keepInputBytes`, oldest dropped first; a job another
   * process runs, or one run after a restart, stages in from storage as before. `input` must not change.
   */
  keepInput(jobId: string, input: Buffer, files: { name: string; body: Buffer }[] = []): void {
    const bytes = files.reduce((n, f) => n + f.body.length, input.length);
    this.takeKept(jobId);
    if (bytes > this.keepInputBytes / 4) return;
    this.kept.set(jobId, { input, files, bytes });
    this.keptBytes += bytes;
    for (const [id, entry] of this.kept) {
      if (this.keptBytes <= this.keepInputBytes) break;
      this.kept.delete(id);
      this.keptBytes -= entry.bytes;
    }
  }

  /** Forgets a kept input (its job's row was not written). */
  dropKept(jobId: string): void {
    this.takeKept(jobId);
  }

  private takeKept(jobId: string): KeptInput | null {
    const entry = this.kept.get(jobId);
    if (!entry) return null;
    this.kept.delete(jobId);
    this.keptBytes -= entry.bytes;
    return entry;
  }

  /** Writes the job's input into a fresh local directory for the engine. */
  async stageIn(jobId: string, attempt: number): Promise<string> {
    const dir = this.localDir(jobId, attempt);
    const kept = this.takeKept(jobId);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const input = kept?.input ?? (await this.store.get(this.inputKey(jobId)));
    if (!input) throw new Error(`the input of job ${jobId} is missing from storage`);
    await writeFile(join(dir, INPUT_NAME), input, { mode: 0o600 });
    const files =
      kept?.files ??
      (await Promise.all(
        (
          await this.store.list(`jobs/${jobId}/in`)
        ).map(async (key) => ({
          name: key.slice(key.lastIndexOf('/') + 1),
          body: await this.store.get(key),
        })),
      ));
    const names = new Set<string>();
    for (const { name, body } of files) {
      names.add(name);
      if (body && SAFE_NAME.test(name)) await writeFile(join(dir, name), body, { mode: 0o600 });
    }
    this.stagedNames.set(dir, names);
    return dir;
  }

  /** Uploads what the engine wrote (everything but the input) and returns the manifest. */
  async stageOut(jobId: string, dir: string): Promise<StoredFile[]> {
    const staged =
      this.stagedNames.get(dir) ??
      new Set((await this.store.list(`jobs/${jobId}/in`)).map((k) => k.slice(k.lastIndexOf('/') + 1)));
    const names = (await readdir(dir)).filter(
      (n) => n !== INPUT_NAME && !staged.has(n) && SAFE_NAME.test(n) && !n.endsWith('.tmp'),
    );
    const files: StoredFile[] = [];
    for (const name of names.sort()) {
      if (!(await stat(join(dir, name))).isFile()) continue;
      const body = await readFile(join(dir, name));
      const bytes = body.length;
      // Below OFFLOAD_BYTES `put` seals it here, synchronously, and leaves it intact: it can be kept.
      if (name === RESULTS_NAME && bytes < OFFLOAD_BYTES && this.resultsWanted.some((wants) => wants(jobId)))
        this.keepResults(jobId, body);
      // Moved to the worker thread that seals it (a results file may be tens of MB): not read again here.
      await this.store.put(this.resultKey(jobId, name), body, { giveAway: true });
      files.push({ name, bytes });
    }
    return files;
  }

  private keepResults(jobId: string, body: Buffer): void {
    this.dropResults(jobId);
    this.keptResults.set(jobId, body);
    this.keptResultsBytes += body.length;
    for (const [id, kept] of this.keptResults) {
      if (this.keptResultsBytes <= KEPT_RESULTS_BYTES) break;
      this.keptResults.delete(id);
      this.keptResultsBytes -= kept.length;
    }
  }

  /**
   * The results.json a run here stored and recorded, once (null: not kept — read it from storage). Saves
   * reading it back and opening it again a few ms after it was stored (a study point's outputs).
   */
  takeResults(jobId: string): Buffer | null {
    const kept = this.keptResults.get(jobId) ?? null;
    this.dropResults(jobId);
    return kept;
  }

  /** Forgets kept results: their run's outcome was not recorded (another attempt owns the job). */
  dropResults(jobId: string): void {
    const kept = this.keptResults.get(jobId);
    if (!kept) return;
    this.keptResults.delete(jobId);
    this.keptResultsBytes -= kept.length;
  }

  async cleanLocal(dir: string): Promise<void> {
    this.stagedNames.delete(dir);
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
