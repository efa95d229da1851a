/**
 * The web app's one HTTP client: every API call of the app (auth, billing, the admin debug panel, the
 * environment's jobs) goes through `request`, which reads any body safely (JSON when it is JSON, else
 * text) and never throws on a bad body; only a network failure throws, and each caller maps that to its
 * own message (spec 000 §8, spec 001 §8). Response bodies are typed with the contracts' types by callers.
 */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Calls the global fetch at call time, so tests that stub it are seen. */
export const defaultFetch: FetchLike = (input, init) => fetch(input, init);

export interface ApiResponse {
  ok: boolean;
  status: number;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
  text: string;
  /** `json` when it is an object, else {} — for reading fields without checks. */
  body: Record<string, unknown>;
}

export interface RequestOptions extends Omit<RequestInit, 'body'> {
  /** Sent as a JSON body with `content-type: application/json`. */
  json?: unknown;
  body?: RequestInit['body'];
  fetch?: FetchLike;
}

/** One API call. Throws only when the request itself fails (network, abort). */
export async function request(path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const { json, fetch: doFetch = defaultFetch, ...init } = options;
  if (json !== undefined) {
    init.headers = { 'content-type': 'application/json', ...(init.headers as Record<string, string>) };
    init.body = JSON.stringify(json);
  }
  const res = await doFetch(path, init);
  const read = await readBody(res);
  return { ok: res.ok, status: res.status, ...read, body: isRecord(read.json) ? read.json : {} };
}

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

/**
 * The user-facing text of an API error body ({ error: code, message: text }, DESIGN.md §5): the first
 * non-empty string among `keys`.
 */
export function errorText(
  json: unknown,
  keys: readonly string[] = ['message', 'error', 'detail'],
): string | undefined {
  if (!isRecord(json)) return undefined;
  for (const key of keys) {
    const value = json[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return undefined;
}
