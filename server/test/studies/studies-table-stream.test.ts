import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { StudyResponse } from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_PAGE_POINTS } from '../../src/studies/study-service.ts';
import { studyTable, tableCsv } from '../../src/studies/study-table.ts';
import { createStudy, getStudy, voltageStudy, waitForStudy } from '../support/studies.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { registerTestUser } from '../support/users.ts';

/**
 * GET /api/fea/studies/{id}/table streams (docs/studies.md): the points are read and written a page at a
 * time, over a real socket, and the text is the same table the study reply gives.
 */
let t: TestApp;
let cookie: string;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ ENGINE_TEST_HOOKS: '1', JOB_SLOTS: '2' });
  cookie = (await registerTestUser(t.app)).cookie;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
});

/** A GET over the socket: status, headers, body, and how many chunks the body arrived in. */
function get(path: string, who = cookie, headers: Record<string, string> = {}) {
  return new Promise<{
    status: number;
    headers: Record<string, unknown>;
    body: string;
    raw: Buffer;
    chunks: number;
  }>((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: { cookie: who, ...headers } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(parts).toString('utf8'),
          raw: Buffer.concat(parts),
          chunks: parts.length,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the study table download', () => {
  it('streams the CSV and the JSON of a study of more points than a page, equal to the study’s table', async () => {
    const n = 2 * TABLE_PAGE_POINTS + 20;
    // every point sleeps: two start and are stopped, the rest are cancelled while they wait
    const res = await createStudy(t.app, cookie, voltageStudy(n), 30);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().study_id as string;
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/fea/studies/${id}/cancel`,
      headers: { cookie },
    });
    expect(cancel.statusCode).toBe(200);
    await waitForStudy(t.app, cookie, id, 90_000);
    const study = (await getStudy(t.app, cookie, id)) as unknown as StudyResponse;
    expect(study.points).toHaveLength(n);

    const csv = await get(`/api/fea/studies/${id}/table?format=csv`);
    expect(csv.status).toBe(200);
    // streamed: no length known up front, the body sent in pieces
    expect(csv.headers['transfer-encoding']).toBe('chunked');
    expect(csv.headers['content-length']).toBeUndefined();
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="study_voltage_sweep_of_${n}.csv"`);
    expect(csv.body).toBe(tableCsv(studyTable(study)));
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(n + 1);
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual(
      Array.from({ length: n }, (_, i) => i),
    );
    console.log(`study table of ${n} points: CSV ${csv.body.length} bytes in ${csv.chunks} chunks`);

    const json = await get(`/api/fea/studies/${id}/table`);
    expect(json.status).toBe(200);
    expect(json.headers['transfer-encoding']).toBe('chunked');
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(json.body)).toEqual(studyTable(study));

    // Compressed as it streams, by Accept-Encoding (br preferred, as for the other JSON replies): the
    // same text once decoded, much smaller on the wire.
    for (const [format, identity] of [
      ['csv', csv],
      ['json', json],
    ] as const) {
      const br = await get(`/api/fea/studies/${id}/table?format=${format}`, cookie, {
        'accept-encoding': 'gzip, deflate, br',
      });
      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(brotliDecompressSync(br.raw).toString('utf8')).toBe(identity.body);
      const gz = await get(`/api/fea/studies/${id}/table?format=${format}`, cookie, {
        'accept-encoding': 'gzip;q=1, br;q=0',
      });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.raw).toString('utf8')).toBe(identity.body);
      expect(identity.headers['content-encoding']).toBeUndefined();
      console.log(
        `study table ${format}: ${identity.raw.length} bytes, br ${br.raw.length}, gzip ${gz.raw.length}`,
      );
      expect(br.raw.length).toBeLessThan(identity.raw.length / 3);
    }
  }, 120_000);

  it('a one-point table has its header and row; another user’s table is a 404 before any row', async () => {
    const res = await createStudy(t.app, cookie, voltageStudy(1));
    const id = res.json().study_id as string;
    await waitForStudy(t.app, cookie, id);
    const json = await get(`/api/fea/studies/${id}/table`);
    const table = JSON.parse(json.body);
    expect(table.columns).toEqual([
      'point',
      'dirichletFaceConditions[1].voltage',
      'status',
      'stored_energy_J',
      'capacitance_F',
      'error',
      'job_id',
    ]);
    expect(table.rows).toHaveLength(1);
    const other = await registerTestUser(t.app);
    const refused = await get(`/api/fea/studies/${id}/table?format=csv`, other.cookie);
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body).message).toBe('Study not found');
  }, 60_000);
});
