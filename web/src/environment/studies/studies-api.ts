import type { CreateStudyRequest, StudyListResponse, StudyResponse } from '@fieldline/contracts';
import { request } from '../../api/http.ts';

/** Design studies (docs/studies.md): what the Study panel and the dashboard call. */
export async function createStudy(body: CreateStudyRequest | Record<string, unknown>) {
  return request('/api/fea/studies', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

export async function fetchStudy(id: string): Promise<StudyResponse | null> {
  const res = await request(`/api/fea/studies/${encodeURIComponent(id)}`, {
    credentials: 'same-origin',
    cache: 'no-store',
  });
  return res.ok ? (res.json as StudyResponse) : null;
}

export async function fetchStudies(): Promise<StudyListResponse['studies']> {
  const res = await request('/api/fea/studies', { credentials: 'same-origin', cache: 'no-store' });
  return res.ok ? ((res.json as StudyListResponse).studies ?? []) : [];
}

export async function cancelStudy(id: string) {
  return request(`/api/fea/studies/${encodeURIComponent(id)}/cancel`, {
    method: 'POST',
    credentials: 'same-origin',
  });
}

export const studyCsvUrl = (id: string) => `/api/fea/studies/${encodeURIComponent(id)}/table?format=csv`;

/** The study's point count and estimate, with the server's own checks (nothing is created). */
export async function estimateStudy(body: Record<string, unknown>) {
  return request('/api/fea/studies/estimate', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
