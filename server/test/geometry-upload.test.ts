import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unsupportedFileTypeMessage } from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { networkIsolationPrefix } from '../src/engine/network-isolation.ts';
import {
  convertStep,
  multipart,
  onPostgres,
  type UploadFixtures,
  uploadFixtures,
} from './support/geometry.ts';
import { cookieFrom, createTestApp, type TestApp, waitForJob } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

let t: TestApp;
let fx: UploadFixtures;

beforeAll(async () => {
  fx = uploadFixtures();
  // Small limits so the tests can cross them: guests 1 MB, the token plan 1.5 MB, the server 2 MB.
  const plans = join(mkdtempSync(join(tmpdir(), 'fieldline-plans-')), 'plans.yaml');
  writeFileSync(
    plans,
    readFileSync(join(REPO_ROOT, 'config', 'plans.yaml'), 'utf8').replace(
      'max_file_size_mb: 100',
      'max_file_size_mb: 1.5',
    ),
  );
  t = await createTestApp({
    GUEST_MAX_MODEL_MB: '1',
    MAX_UPLOAD_MB: '2',
    PLANS_FILE: plans,
    FIELDLINE_THREADS: '1',
  });
});
afterAll(async () => {
  await t.close();
});

async function uploadCount(): Promise<number> {
  const row = await t.ctx.db
    .selectFrom('uploads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Nothing of a refused upload may stay behind: no row, no stored bytes, no scratch files. */
async function expectNothingKept(before: number) {
  expect(await uploadCount()).toBe(before);
  const tmp = join(t.dataDir, 'tmp');
  expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
  expect(await t.ctx.compute.storage.list('uploads')).toHaveLength(before);
}

describe('POST /api/convert-step', () => {
  it('converts a STEP assembly into named bodies in the file’s unit and keeps the upload', async () => {
    const res = await convertStep(t.app, 'assembly.step', fx.file('assembly.step'));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.format).toBe('multi-body');
    expect(body.mesh_count).toBe(2);
    expect(body.meshes.map((m: { name: string }) => m.name)).toEqual(['Housing', 'Pin']);
    expect(body.units).toBe('mm');
    expect(body.bounding_box).toEqual({ min: [0, 0, 0], max: [10, 10, 16] });
    const triangles = body.meshes.reduce((n: number, m: { faces: unknown[] }) => n + m.faces.length, 0);
    expect(body.face_patches).toHaveLength(triangles);
    expect(body.upload_id).toMatch(/^[0-9a-f-]{36}$/);
    const row = await t.ctx.db
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', body.upload_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ format: 'step', units: 'mm', body_count: 2, original_name: 'assembly.step' });
    expect(row.owner_session_hash).toBeTruthy();
    // Stored encrypted: the bytes on disk are not the file, but read back they are.
    const stored = await t.ctx.uploads.store.read(row.storage_key);
    expect(stored?.equals(fx.file('assembly.step'))).toBe(true);
    const onDisk = await t.ctx.compute.storage.blobs.get(`uploads/${row.storage_key}`);
    expect(onDisk?.includes(Buffer.from('MANIFOLD_SOLID_BREP'))).toBe(false);
    expect(res.headers['set-cookie']).toMatch(/fl_session=/);
  });

  it.skipIf(onPostgres)(
    'honours the unit a STEP file declares (inches) and ignores the units field for STEP',
    async () => {
      const res = await convertStep(t.app, 'box_in.STEP', fx.file('box_in.step'), { units: 'mm' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().units).toBe('in');
      expect(res.json().bounding_box.max).toEqual([10, 10, 10]);
      expect(res.json().name).toBe('Block');
    },
  );

  it.skipIf(onPostgres)(
    'reads STL (binary and ASCII) and OBJ, with the units field (mm by default)',
    async () => {
      const binary = await convertStep(t.app, 'box.stl', fx.file('box_binary.stl'), { units: 'cm' });
      expect(binary.statusCode, binary.body).toBe(200);
      expect(binary.json()).toMatchObject({
        units: 'cm',
        bounding_box: { min: [0, 0, 0], max: [10, 10, 10] },
      });
      expect(binary.json().faces).toHaveLength(12);
      expect(binary.json().vertices).toHaveLength(8);
      expect(new Set(binary.json().face_patches).size).toBe(6);

      const ascii = await convertStep(t.app, 'box.stl', fx.file('box_ascii.stl'));
      expect(ascii.json()).toMatchObject({ units: 'mm', name: 'box' });

      const obj = await convertStep(t.app, 'cube.obj', fx.file('cube.obj'), { units: 'in' });
      expect(obj.statusCode, obj.body).toBe(200);
      expect(obj.json()).toMatchObject({ units: 'in', name: 'cube', source_format: 'obj' });

      const bad = await convertStep(t.app, 'box.stl', fx.file('box_ascii.stl'), { units: 'furlong' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/units must be one of mm, cm, m, in, um, ft/);
    },
  );

  it.skipIf(onPostgres)('reads a ZIP of STL files as a multi-body model', async () => {
    const res = await convertStep(t.app, 'parts.zip', fx.file('parts.zip'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().meshes.map((m: { name: string }) => m.name)).toEqual(['left', 'right']);
    expect(res.json().bounding_box.max).toEqual([30, 10, 10]);
  });

  it.skipIf(onPostgres).each([
    ['traversal.zip', 'outside the archive'],
    ['symlink.zip', 'symbolic link'],
    ['nested.zip', 'Nested archives'],
    ['bomb.zip', 'expands more than 200 times'],
  ])('refuses the unsafe archive %s and keeps nothing', async (name, message) => {
    const before = await uploadCount();
    const res = await convertStep(t.app, name, fx.file(name));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toBe('unsafe_archive');
    expect(res.json().message).toContain(message);
    await expectNothingKept(before);
    expect(existsSync('/tmp/evil.stl')).toBe(false);
  });

  it('gives the spec’s exact message for unsupported types, and explains JSON', async () => {
    const before = await uploadCount();
    const txt = await convertStep(t.app, 'notes.txt', fx.file('notes.txt'));
    expect(txt.statusCode).toBe(400);
    expect(txt.json()).toEqual({
      error: 'unsupported_file_type',
      message: unsupportedFileTypeMessage('txt'),
    });
    expect(txt.json().message).toBe(
      'Unsupported file type: txt. Supported formats: JSON (mesh/FEA results), STEP, STL, OBJ, ZIP.',
    );
    const json = await convertStep(t.app, 'mesh.json', Buffer.from('{"vertices":[]}'));
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe('not_convertible');
    await expectNothingKept(before);
  });

  it.skipIf(onPostgres)('checks the content, not just the name (a PNG renamed .step)', async () => {
    const before = await uploadCount();
    const res = await convertStep(t.app, 'photo.step', fx.file('photo.step'));
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/not a STEP file/);
    await expectNothingKept(before);
  });

  it('refuses a STEP file cut short before its END-ISO-10303-21 terminator', async () => {
    const before = await uploadCount();
    const step = fx.file('box.step');
    const res = await convertStep(t.app, 'box.step', step.subarray(0, step.length - 40));
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/box\.step is incomplete: a STEP file ends with END-ISO-10303-21/);
    await expectNothingKept(before);
  });

  it('limits upload size with a clear 413: smaller for guests, larger when signed in', async () => {
    const before = await uploadCount();
    const large = fx.file('large.stl'); // 1.3 MB: over the guest limit (1 MB), under the plan's (1.5 MB)
    const guest = await convertStep(t.app, 'large.stl', large);
    expect(guest.statusCode).toBe(413);
    expect(guest.json()).toEqual({
      error: 'file_too_large',
      message: 'The file is larger than the 1 MB upload limit for guests. Sign in to upload larger files.',
    });
    await expectNothingKept(before);

    const user = await registerTestUser(t.app, {}, '10.9.0.1');
    const signedIn = await convertStep(t.app, 'large.stl', large, { cookie: user.cookie });
    // Under the limit its content is checked, and it has no facets.
    expect(signedIn.statusCode).toBe(422);
    expect(signedIn.json().message).toMatch(/large\.stl is not a valid STL file/);

    const huge = Buffer.alloc(1.6 * 1024 * 1024, 0x20);
    const tooBig = await convertStep(t.app, 'huge.stl', huge, { cookie: user.cookie });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe(
      'The file is larger than the 1.5 MB upload limit of the Pay As You Go plan. Choose a plan with a larger limit on the Billing page.',
    );
    await expectNothingKept(before);
  });

  it('asks for a file when the form has none', async () => {
    const body = multipart(null, [['force_tet', 'true']]);
    const res = await t.app.inject({ method: 'POST', url: '/api/convert-step', ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Choose a file/);
  });
});

describe.skipIf(onPostgres)('the CAD parser runs isolated', () => {
  it('turns a parser crash into a clear error and keeps serving', async () => {
    // A stand-in interpreter that dies the way a segfaulting OpenCascade reader does.
    const crasher = join(t.dataDir, 'crashing-python.sh');
    writeFileSync(crasher, '#!/bin/sh\nkill -SEGV $$\n');
    chmodSync(crasher, 0o755);
    const crashing = await createTestApp({ ENGINE_PYTHON: crasher });
    try {
      const before = await crashing.ctx.db
        .selectFrom('uploads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      const res = await convertStep(crashing.app, 'assembly.step', fx.file('assembly.step'));
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe('parser_crashed');
      expect(res.json().message).toMatch(/crashed while reading assembly\.step.*SIGSEGV/);
      expect(Number(before?.n)).toBe(0);
      const health = await crashing.app.inject({ method: 'GET', url: '/api/docs' });
      expect(health.statusCode).toBe(200);
    } finally {
      await crashing.close();
    }
  });

  it('stops a parse that runs past its time limit', async () => {
    const slow = await createTestApp({ CONVERT_TIMEOUT_SECONDS: '1' });
    try {
      const started = Date.now();
      const res = await convertStep(slow.app, 'heavy.step', fx.file('heavy.step'));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: 'conversion_timeout' });
      expect(res.json().message).toMatch(/took longer than 1 s/);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await slow.close();
    }
  });

  it('stops a parse that needs more memory than allowed', async () => {
    const small = await createTestApp({ CONVERT_MEMORY_LIMIT_MB: '48' });
    try {
      const res = await convertStep(small.app, 'assembly.step', fx.file('assembly.step'));
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe('conversion_memory');
    } finally {
      await small.close();
    }
  });

  it('runs the engine without network access where the system allows it', async () => {
    const prefix = networkIsolationPrefix();
    if (prefix.length === 0) {
      console.warn('network namespaces are not available here; engine processes keep the host network');
      return;
    }
    // The engine stand-in reports the network interfaces it can see.
    const probe = join(t.dataDir, 'netprobe.sh');
    writeFileSync(
      probe,
      '#!/bin/sh\nifs=$(tail -n +3 /proc/self/net/dev | cut -d: -f1 | tr -d " " | tr "\\n" " ")\necho "{\\"event\\":\\"done\\",\\"result\\":{\\"ifs\\":\\"$ifs\\"}}"\n',
    );
    chmodSync(probe, 0o755);
    const { runEngine } = await import('../src/engine/engine-runner.ts');
    const isolated = await runEngine(
      { python: probe, engineDir: t.dataDir, isolateNetwork: true },
      { command: 'health', timeoutSeconds: 10, memoryLimitMb: 512 },
    );
    const open = await runEngine(
      { python: probe, engineDir: t.dataDir, isolateNetwork: false },
      { command: 'health', timeoutSeconds: 10, memoryLimitMb: 512 },
    );
    expect(isolated.ok && isolated.result.ifs).toBe('lo ');
    expect(open.ok && String(open.result.ifs).trim().split(' ').length).toBeGreaterThanOrEqual(1);
  });
});

describe('uploads belong to their owner', () => {
  it('lets only the uploader mesh an upload; a signed-in guest keeps it', async () => {
    const up = await convertStep(t.app, 'box.stl', fx.file('box_binary.stl'));
    const owner = cookieFrom(up);
    const uploadId = up.json().upload_id;
    const submit = (cookie?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/fea/submit',
        headers: cookie ? { cookie } : {},
        payload: {
          mesh_data: { source_upload_id: uploadId },
          config: { analysisType: 'tetra-only', meshingOnly: true, meshMaxSize: 5 },
        },
      });
    const stranger = cookieFrom(await convertStep(t.app, 'cube.obj', fx.file('cube.obj')));
    for (const cookie of [stranger, undefined]) {
      const res = await submit(cookie);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'not_found', message: 'Upload not found', status: 'error' });
    }
    // A guest who registers keeps their uploads.
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { cookie: owner },
      remoteAddress: '10.9.0.2',
      payload: {
        name: 'Grace Hopper',
        email: `grace.${Date.now()}@analytical-engines.com`,
        username: `grace${Date.now() % 100000}`,
        password: 'correct horse battery staple',
        acceptedTerms: true,
      },
    });
    expect(reg.statusCode, reg.body).toBe(201);
    const row = await t.ctx.db
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', uploadId)
      .executeTakeFirstOrThrow();
    expect(row.owner_user_id).toBe(reg.json().user.id);
    expect(row.owner_session_hash).toBeNull();
    const mine = await submit(cookieFrom(reg));
    expect(mine.statusCode, mine.body).toBe(200);
    const { body } = await waitForJob(t.app, mine.json().job_id, cookieFrom(reg));
    expect(body.status, body.error).toBe('completed');
  });
});
