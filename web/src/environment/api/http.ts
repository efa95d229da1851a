/** Small fetch helpers shared by the environment's API calls. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export const defaultFetch: FetchLike = (input, init) => fetch(input, init);

/** Reads a body as JSON when it is JSON, else as text; never throws. */
export async function readBody(res: Response): Promise<{ text: string; json: unknown }> {
  let text = '';
  try {
    text = await res.text();
  } catch {
    return { text: '', json: undefined };
  }
  try {
    return { text, json: JSON.parse(text) };
  } catch {
    return { text, json: undefined };
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The user-facing text of an API error body ({ error: code, message: text }, DESIGN.md §5). */
export function errorText(json: unknown): string | undefined {
  if (!isRecord(json)) return undefined;
  for (const key of ['message', 'error', 'detail']) {
    const value = json[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return undefined;
}
