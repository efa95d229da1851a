import type { SubmitRequest } from '@fieldline/contracts';
import { defaultFetch, type FetchLike, request } from '../../api/http.ts';

export interface HttpResult {
  ok: boolean;
  status: number;
  json: unknown;
  text: string;
}

export type SubmitBody = { mesh_data: SubmitRequest['mesh_data'] | Record<string, unknown>; config: object };

/** The simulator's job calls (spec 001 §7). Every call returns what the server said; callers decide. */
export class FeaApi {
  constructor(private readonly doFetch: FetchLike = defaultFetch) {}

  private async call(path: string, init?: RequestInit): Promise<HttpResult> {
    const { ok, status, json, text } = await request(path, {
      credentials: 'same-origin',
      ...init,
      fetch: this.doFetch,
    });
    return { ok, status, json, text };
  }

  health(): Promise<HttpResult> {
    return this.call('/api/fea/health', { cache: 'no-store' });
  }

  submit(body: SubmitBody): Promise<HttpResult> {
    return this.call('/api/fea/submit', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  status(jobId: string): Promise<HttpResult> {
    return this.call(`/api/fea/status/${encodeURIComponent(jobId)}`, { cache: 'no-store' });
  }

  cancel(jobId: string): Promise<HttpResult> {
    return this.call(`/api/fea/cancel/${encodeURIComponent(jobId)}`, { method: 'POST' });
  }

  resultsInfo(jobId: string): Promise<HttpResult> {
    return this.call(`/api/fea/results/${encodeURIComponent(jobId)}/info`, { cache: 'no-store' });
  }

  /** results.bin for the viewer (docs/results-binary.md); null when the server has none. */
  async resultsBinary(jobId: string): Promise<ArrayBuffer | null> {
    try {
      const res = await this.doFetch(`/api/fea/results/${encodeURIComponent(jobId)}/binary`, {
        credentials: 'same-origin',
        cache: 'no-store',
      });
      return res.ok ? await res.arrayBuffer() : null;
    } catch {
      return null;
    }
  }

  /** Meshing diagnostics after a failure; caching disabled (spec 001 §7). */
  problemMarkers(jobId?: string): Promise<HttpResult> {
    const query = jobId ? `?job_id=${encodeURIComponent(jobId)}` : '';
    return this.call(`/results/tetra_output.json${query}`, { cache: 'no-store' });
  }

  /**
   * GET /api/fea/download/{jobId}: the results JSON, or an export (`?format=touchstone|csv`), as a blob
   * with the server's file name. Failure: `Download failed: {status}`.
   */
  async download(jobId: string, format?: 'touchstone' | 'csv'): Promise<{ blob: Blob; fileName?: string }> {
    const query = format ? `?format=${format}` : '';
    let res: Response;
    try {
      res = await this.doFetch(`/api/fea/download/${encodeURIComponent(jobId)}${query}`, {
        credentials: 'same-origin',
      });
    } catch {
      throw new Error('Download failed: network error');
    }
    if (!res.ok) throw new Error(`Download failed: ${res.status}`);
    const disposition = res.headers.get('content-disposition') ?? '';
    const fileName = /filename="([^"]+)"/.exec(disposition)?.[1];
    return { blob: await res.blob(), fileName };
  }
}
