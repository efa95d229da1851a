import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The working directory of each job on local disk: the engine reads `job.json` and writes
 * `results.json` (plus binary arrays) there. Paths in the DB are relative to the data dir.
 */
export class JobFiles {
  constructor(private readonly dataDir: string) {}

  dir(jobId: string): string {
    return join(this.dataDir, 'jobs', jobId);
  }

  relative(jobId: string, file: string): string {
    return join('jobs', jobId, file);
  }

  absolute(relativePath: string): string {
    return join(this.dataDir, relativePath);
  }

  async writeInput(jobId: string, input: unknown): Promise<string> {
    const dir = this.dir(jobId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(join(dir, 'job.json'), JSON.stringify(input), { mode: 0o600 });
    return this.relative(jobId, 'job.json');
  }

  async readJson(relativePath: string): Promise<unknown> {
    return JSON.parse(await readFile(this.absolute(relativePath), 'utf8'));
  }

  async remove(jobId: string): Promise<void> {
    await rm(this.dir(jobId), { recursive: true, force: true });
  }
}
