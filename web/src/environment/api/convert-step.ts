import { type ConvertResponse, LENGTH_UNITS } from '@fieldline/contracts';
import { type FetchLike, isRecord, request } from '../../api/http.ts';
import { apiBaseUrl } from './api-base.ts';

export class ConversionError extends Error {}

export const INVALID_JSON_RESPONSE = 'Invalid JSON response';
export const INVALID_MODEL_DATA = 'Invalid model data: missing faces/vertices or meshes data';

/** The converted model: the contract's response; units/box/upload id are present on our server. */
export type ConvertedModel = Partial<ConvertResponse> & Record<string, unknown>;

/** Spec 001 §5: faces and vertices, or meshes with mesh_count, or the multi-body format. */
export function isCompleteModel(data: unknown): data is ConvertedModel {
  if (!isRecord(data)) return false;
  if (Array.isArray(data.faces) && Array.isArray(data.vertices)) return true;
  if (Array.isArray(data.meshes) && typeof data.mesh_count === 'number') return true;
  return data.format === 'multi-body';
}

/**
 * POST {api host}/api/convert-step (spec 001 §7): multipart with the file and force_tet=true appended
 * twice (conversion is always forced to tetrahedral meshing). Errors follow §8 exactly; our API puts
 * the user-facing text in `message` and a code in `error`, so `message` is preferred when both exist.
 */
export async function convertStep(
  file: File,
  opts: { baseUrl?: string; fetch?: FetchLike; signal?: AbortSignal } = {},
): Promise<ConvertedModel> {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('force_tet', 'true');
  form.append('force_tet', 'true');
  const base = opts.baseUrl ?? apiBaseUrl();
  const res = await request(`${base}/api/convert-step`, {
    method: 'POST',
    body: form,
    credentials: 'include',
    signal: opts.signal,
    fetch: opts.fetch,
  });
  if (!res.ok) {
    throw new ConversionError(
      conversionErrorText(res.text) || res.text || `Request failed with status ${res.status}`,
    );
  }
  if (res.json === undefined) throw new ConversionError(INVALID_JSON_RESPONSE);
  if (!isCompleteModel(res.json)) throw new ConversionError(INVALID_MODEL_DATA);
  return res.json;
}

function conversionErrorText(text: string): string | undefined {
  try {
    const json: unknown = JSON.parse(text);
    if (!isRecord(json)) return undefined;
    const message = typeof json.message === 'string' ? json.message : undefined;
    const error = typeof json.error === 'string' ? json.error : undefined;
    return message || error;
  } catch {
    return undefined;
  }
}

export function isLengthUnit(value: unknown): value is (typeof LENGTH_UNITS)[number] {
  return typeof value === 'string' && (LENGTH_UNITS as readonly string[]).includes(value);
}
