import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JobStorage } from './job-storage.ts';

/**
 * Chained runs on the worker: a job whose config names `fieldsFrom` carries that request as a small input
 * file (written at submit, after fea/fields-from-check.ts checked the source). Before the engine starts, the
 * worker reads the source's stored results itself (encrypted storage, any backend), picks the named fields
 * (a transient source's frame when asked) and writes them beside job.json for the engine
 * (engine io/job_files.py). The browser never sends them.
 */
export const FIELDS_FROM_REQUEST_FILE = 'fields_from_request.json';
/** What the engine reads (engine/fieldline_engine/io/job_files.py FIELDS_FROM_FILE). */
export const FIELDS_FROM_FILE = 'fields_from.json';

export interface FieldsFromRequest {
  jobId: string;
  fields: string[];
  frame?: number | 'last';
}

interface FieldEntry {
  label?: string;
  unit?: string;
  kind?: string;
  location?: string;
  data?: unknown;
}

export interface StoredResults {
  fields?: Record<string, FieldEntry>;
  animation?: {
    frames?: number;
    axis?: string;
    frame_values?: number[];
    fields?: string[];
    data?: Record<string, unknown>[];
  };
  solver_info?: { analysis?: string };
}

/** The source's frame a request picks: its index, or null for the result's own fields (no frame asked). */
export function frameIndex(results: StoredResults, frame: FieldsFromRequest['frame']): number | null {
  if (frame === undefined) return null;
  const count = results.animation?.data?.length ?? 0;
  return frame === 'last' ? count - 1 : frame;
}

/** The engine's input: each requested field's catalogue entry with the data of the chosen frame. */
export function pickFields(request: FieldsFromRequest, results: StoredResults): Record<string, unknown> {
  const index = frameIndex(results, request.frame);
  const fields: Record<string, FieldEntry> = {};
  for (const name of request.fields) {
    const entry = results.fields?.[name];
    if (!entry) throw new Error(`the source job has no ${name} field`);
    const data = index === null ? entry.data : results.animation?.data?.[index]?.[name];
    if (data === undefined) throw new Error(`the source job's frame ${index} has no ${name} field`);
    fields[name] = { label: entry.label, unit: entry.unit, kind: entry.kind, location: entry.location, data };
  }
  const source: Record<string, unknown> = {
    job_id: request.jobId,
    analysis: results.solver_info?.analysis ?? null,
  };
  if (index !== null) {
    source.frame = index;
    source.frame_value = results.animation?.frame_values?.[index] ?? null;
    source.frame_axis = results.animation?.axis ?? null;
  }
  return { source, fields };
}

export type StagedFields = { ok: true; staged: boolean } | { ok: false; message: string };

/** Writes fields_from.json into the engine's directory when the job asks for another job's fields. */
export async function stageFieldsFrom(files: JobStorage, dir: string): Promise<StagedFields> {
  let request: FieldsFromRequest;
  try {
    request = JSON.parse(await readFile(join(dir, FIELDS_FROM_REQUEST_FILE), 'utf8')) as FieldsFromRequest;
  } catch {
    return { ok: true, staged: false }; // not a chained job
  }
  const results = (await files.readResult(request.jobId, 'results.json'))?.toString('utf8');
  if (!results)
    return {
      ok: false,
      message: `The results of job ${request.jobId}, whose fields this run takes (fieldsFrom), are no longer stored. Nothing was charged; run that job again, then this one.`,
    };
  let picked: Record<string, unknown>;
  try {
    picked = pickFields(request, JSON.parse(results) as StoredResults);
  } catch (err) {
    return { ok: false, message: `fieldsFrom: ${(err as Error).message}. Nothing was charged.` };
  }
  await writeFile(join(dir, FIELDS_FROM_FILE), JSON.stringify(picked), { mode: 0o600 });
  return { ok: true, staged: true };
}

/** Takes the staged fields out again before the results are stored (they are the source's, not results). */
export async function unstageFieldsFrom(dir: string): Promise<void> {
  await rm(join(dir, FIELDS_FROM_FILE), { force: true });
}
