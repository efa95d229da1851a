import { beforeEach, describe, expect, it } from 'vitest';
import { ConversionError, type ConvertedModel, convertStep } from '../../src/environment/api/convert-step.ts';
import { INVALID_SURFACE_MESSAGE, rewriteServerError } from '../../src/environment/jobs/server-error.ts';
import { AbortedError } from '../../src/environment/jobs/sleep.ts';
import { processResults } from '../../src/environment/results/process-results.ts';
import { hasVolumeMesh } from '../../src/environment/state/environment-state.ts';
import { statusChip } from '../../src/environment/state/status-chip.ts';
import { loadFile } from '../../src/environment/workflows/load-file.ts';
import { openJob, resumeAnalysis, runAnalysis } from '../../src/environment/workflows/run-analysis.ts';
import { generateVolumeMesh } from '../../src/environment/workflows/run-meshing.ts';
import { completedResults, FakeServer, json, makeDeps, tinyVolume } from './fakes.ts';

const file = (name: string, content: string | object = '') =>
  new File([typeof content === 'string' ? content : JSON.stringify(content)], name);

describe('conversion errors (spec 001 §8)', () => {
  const convertWith = async (status: number, body: string) => {
    const server = new FakeServer().on('http://api/api/convert-step', { status, body });
    try {
      await convertStep(file('m.step', 'x'), { baseUrl: 'http://api', fetch: server.fetch });
    } catch (err) {
      expect(err).toBeInstanceOf(ConversionError);
      return { message: (err as Error).message, server };
    }
    return { message: 'no error', server };
  };

  it('sends multipart with force_tet=true appended twice to {api host}/api/convert-step', async () => {
    const model = {
      vertices: [[0, 0, 0]],
      faces: [[0, 0, 0]],
      units: 'mm',
      bounding_box: { min: [0, 0, 0], max: [1, 1, 1] },
      upload_id: 'u1',
    };
    const server = new FakeServer().on('http://api/api/convert-step', json(model));
    const out = await convertStep(file('m.step', 'x'), { baseUrl: 'http://api', fetch: server.fetch });
    expect(out.upload_id).toBe('u1');
    const body = server.calls[0]?.init?.body as FormData;
    expect(body.getAll('force_tet')).toEqual(['true', 'true']);
    expect((body.get('file') as File).name).toBe('m.step');
  });

  it('uses the JSON error field, else the body text, else Request failed with status {code}', async () => {
    expect((await convertWith(422, JSON.stringify({ error: 'STEP has no solids' }))).message).toBe(
      'STEP has no solids',
    );
    expect(
      (await convertWith(422, JSON.stringify({ error: 'bad_step', message: 'The STEP file has no solids.' })))
        .message,
    ).toBe('The STEP file has no solids.');
    expect((await convertWith(502, 'Bad gateway from proxy')).message).toBe('Bad gateway from proxy');
    expect((await convertWith(500, '')).message).toBe('Request failed with status 500');
  });

  it('rejects non-JSON and incomplete models', async () => {
    expect((await convertWith(200, '<html>oops</html>')).message).toBe('Invalid JSON response');
    expect((await convertWith(200, JSON.stringify({ vertices: [] }))).message).toBe(
      'Invalid model data: missing faces/vertices or meshes data',
    );
    const multi = new FakeServer().on('http://api/api/convert-step', json({ meshes: [], mesh_count: 0 }));
    await expect(
      convertStep(file('a.stp'), { baseUrl: 'http://api', fetch: multi.fetch }),
    ).resolves.toBeTruthy();
    const format = new FakeServer().on('http://api/api/convert-step', json({ format: 'multi-body' }));
    await expect(
      convertStep(file('a.stp'), { baseUrl: 'http://api', fetch: format.fetch }),
    ).resolves.toBeTruthy();
  });
});

describe('upload (spec 001 §4/§5)', () => {
  it('rejects unsupported types with the exact message', async () => {
    const { deps, store } = makeDeps(new FakeServer());
    await loadFile(file('drawing.dwg', 'x'), deps);
    expect(store.get().uploadError?.title).toBe(
      'Unsupported file type: dwg. Supported formats: JSON (mesh/FEA results), STEP, STL, OBJ, ZIP.',
    );
  });

  it('clears all prior data before loading', async () => {
    const { deps, store, viewerCalls } = makeDeps(new FakeServer());
    await loadFile(file('mesh.json', tinyVolume), deps);
    expect(store.get().model?.fileName).toBe('mesh.json');
    await loadFile(file('bad.dwg'), deps);
    expect(store.get().model).toBeNull();
    expect(viewerCalls.filter((c) => c.name === 'clearData').length).toBe(2);
  });

  it("drops every family's face and body rows of the old model: a new part's face 3 is another face", async () => {
    const { deps, store } = makeDeps(new FakeServer());
    await loadFile(file('mesh.json', tinyVolume), deps);
    const row = { key: 'r', name: 'Row', faces: '1, 2, 3' };
    store.set((s) => ({
      form: {
        ...s.form,
        frequencyHz: 2e9,
        structuralSupports: [{ ...row, kind: 'fixed', displacement: ['0', '', ''] }],
        structuralLoads: [{ ...row, kind: 'force', force: ['0', '0', '-500'], pressure: '' }],
        thermalConditions: [{ ...row, kind: 'temperature', value: '300', ambient: '293.15' }],
        heatSources: [{ key: 'h', region: '0', kind: 'power', value: '5' }],
        bodyOverrides: { 0: { youngsModulus: '70e9' } },
      },
    }));
    await loadFile(file('other.json', tinyVolume), deps);
    const form = store.get().form;
    expect(form.structuralSupports).toEqual([]);
    expect(form.structuralLoads).toEqual([]);
    expect(form.thermalConditions).toEqual([]);
    expect(form.heatSources).toEqual([]);
    expect(form.bodyOverrides).toEqual({});
    expect(form.frequencyHz).toBe(2e9); // settings that name nothing of the model stay
  });

  it('puts the EM material fields back to their defaults: a library fill is not carried to the next part', async () => {
    const { deps, store } = makeDeps(new FakeServer());
    await loadFile(file('bar.json', tinyVolume), deps);
    const before = store.get().form;
    // "Fill defaults from library: Copper" for the bus bar, then a waveguide is uploaded (qa29)
    store.set((s) => ({
      form: {
        ...s.form,
        defaultPermittivity: '8.854e-12',
        defaultConductivity: '58000000',
        density: '8960',
        heatCapacity: '385',
        useAnisotropicMaterials: true,
        anisotropicMaterials: [
          {
            key: 'a',
            id: 'm',
            permittivity: ['2', '2', '3'],
            permeability: ['1', '1', '1'],
            conductivity: ['0', '0', '0'],
          },
        ],
      },
    }));
    await loadFile(file('waveguide.json', tinyVolume), deps);
    const form = store.get().form;
    expect(form.defaultConductivity).toBe(before.defaultConductivity);
    expect(form.defaultConductivity).toBe('0');
    expect(form.defaultPermittivity).toBe(before.defaultPermittivity);
    expect(form.density).toBe(before.density);
    expect(form.heatCapacity).toBe(before.heatCapacity);
    expect(form.useAnisotropicMaterials).toBe(false);
    expect(form.anisotropicMaterials).toEqual([]);
  });

  it('loads results JSON as completed results, other JSON as mesh data', async () => {
    const { deps, store } = makeDeps(new FakeServer());
    await loadFile(file('r.json', completedResults), deps);
    expect(store.get().analysis.status).toBe('completed');
    expect(store.get().results?.quantities[0]).toMatchObject({ key: 'capacitance_F', value: 2.2e-13 });
    expect(statusChip(store.get()).text).toBe('FEA: completed');

    expect(store.get().model?.mesh.units).toBeUndefined();
    // The engine's results name the mesh's unit `length_unit`; a re-run must keep it (mm stays mm).
    const mmResults = { ...completedResults, length_unit: 'mm', units: { length: 'model', E: 'V/m' } };
    await loadFile(file('r-mm.json', mmResults), deps);
    expect(store.get().model?.mesh.units).toBe('mm');

    await loadFile(file('m.json', { vertices: tinyVolume.vertices, faces: tinyVolume.faces }), deps);
    expect(store.get().results).toBeNull();
    expect(hasVolumeMesh(store.get().model)).toBe(false);
    expect(statusChip(store.get()).text).toBe('Surface mesh loaded');
  });

  it('applies the two results-file checks', async () => {
    const { deps, store } = makeDeps(new FakeServer());
    await loadFile(file('r.json', { solver_info: {}, field_magnitudes: {} }), deps);
    expect(store.get().uploadError?.title).toBe(
      'Invalid FEA results file: missing mesh data (vertices/faces).',
    );
    await loadFile(
      file('r.json', { type: 'multi_body', fea_results: {}, results: [{ success: false, mesh_name: 'a' }] }),
      deps,
    );
    expect(store.get().uploadError?.title).toBe('No successful results found in multi-body FEA file.');
  });

  it('reports other failures as Failed to load file: …', async () => {
    const { deps, store } = makeDeps(new FakeServer(), {
      convert: async () => {
        throw new ConversionError('Request failed with status 413');
      },
    });
    await loadFile(file('broken.json', '{not json'), deps);
    expect(store.get().uploadError?.title).toMatch(/^Failed to load file: /);
    await loadFile(file('big.stl', 'solid'), deps);
    expect(store.get().uploadError?.title).toBe('Failed to load file: Request failed with status 413');
  });

  it('keeps the CAD upload id, units and patches and offers units for STL', async () => {
    const converted = {
      vertices: [
        [0, 0, 0],
        [10, 0, 0],
        [0, 20, 0],
      ],
      faces: [[0, 1, 2]],
      units: 'mm',
      bounding_box: { min: [0, 0, 0], max: [10, 20, 0] },
      upload_id: 'up-1',
      face_patches: [0],
    };
    const { deps, store } = makeDeps(new FakeServer(), { convert: async () => converted as ConvertedModel });
    await loadFile(file('part.stl', 'solid'), deps);
    const model = store.get().model;
    expect(model).toMatchObject({ unitsEditable: true, uploadId: 'up-1', facePatches: [0] });
    expect(model?.mesh).toMatchObject({ units: 'mm', source_upload_id: 'up-1' });
    await loadFile(file('part.step', 'x'), deps);
    expect(store.get().model?.unitsEditable).toBe(false);
  });
});

describe('server error rewrite (spec 001 §8)', () => {
  it('replaces invalid-surface messages and falls back to Unknown server error', () => {
    for (const m of [
      'Found 3 self-intersections',
      'TetGen failed: x',
      'non-manifold edge',
      'bad surface mesh',
      'faces intersect',
      'zero volume tet',
    ]) {
      expect(rewriteServerError(m, 500)).toBe(INVALID_SURFACE_MESSAGE);
    }
    expect(rewriteServerError('Out of memory', 500)).toBe('Out of memory');
    expect(rewriteServerError(undefined, 502)).toBe('Unknown server error (HTTP 502)');
  });
});

const volumeModel = async (deps: ReturnType<typeof makeDeps>['deps']) =>
  loadFile(file('v.json', tinyVolume), deps);

describe('run analysis (spec 001 §5 checks, §7, §8)', () => {
  it('runs the four checks in order', async () => {
    const { deps, store } = makeDeps(new FakeServer());
    await runAnalysis(deps);
    expect(store.get().analysis.error?.title).toBe('No mesh data or configuration available for analysis.');

    await loadFile(file('e.json', { vertices: [], faces: [] }), deps);
    await runAnalysis(deps);
    expect(store.get().analysis.error?.title).toBe('Invalid mesh data: No vertices found.');

    await loadFile(file('e.json', { vertices: [[0, 0, 0]], faces: [] }), deps);
    await runAnalysis(deps);
    expect(store.get().analysis.error?.title).toBe(
      'Invalid mesh data: No elements (tetrahedra or faces) found.',
    );

    const down = new FakeServer().on('/api/fea/health', json({ status: 'degraded' }));
    const d2 = makeDeps(down);
    await volumeModel(d2.deps);
    await runAnalysis(d2.deps);
    expect(d2.store.get().analysis.error?.title).toBe(
      'FEA server is not responding. Please try again later.',
    );
    expect(down.count('/api/fea/submit')).toBe(0);
  });

  it('submits, polls and shows the results', async () => {
    const server = new FakeServer()
      .on('/api/fea/health', json({ status: 'ok' }))
      .on('/api/fea/submit', json({ status: 'queued', job_id: 'j1', message: 'queued' }))
      .on(
        '/api/fea/status/j1',
        json({ status: 'running', progress: 30 }),
        json({ status: 'completed', progress: 100, results: completedResults }),
      );
    const { deps, store, viewerCalls, waits } = makeDeps(server);
    await volumeModel(deps);
    await runAnalysis(deps);
    expect(store.get().analysis).toMatchObject({ status: 'completed', jobId: 'j1' });
    expect(waits.slice(0, 2)).toEqual([1000, 2000]);
    const submitted = JSON.parse(
      server.calls.find((c) => c.path === '/api/fea/submit')?.init?.body as string,
    );
    expect(submitted.config).toMatchObject({ analysisType: 'em', mode: 'electro', meshingOnly: false });
    expect(submitted.mesh_data.tetrahedra).toHaveLength(2);
    const load = viewerCalls.filter((c) => c.kind === 'load').at(-1)?.payload as {
      fields: { electric_field: { values: Float32Array; unit: string } };
    };
    const e = load.fields.electric_field;
    expect(e.unit).toBe('V/m');
    expect(
      [0, 1, 2, 3, 4].map((i) => Math.hypot(e.values[3 * i]!, e.values[3 * i + 1]!, e.values[3 * i + 2]!)),
    ).toEqual([1, 2, 3, 4, 5]);
  });

  it('reports submission failures with the server text, rewritten for invalid surfaces', async () => {
    const server = new FakeServer()
      .on('/api/fea/health', json({ status: 'ok' }))
      .on(
        '/api/fea/submit',
        json({ error: 'invalid_mesh', message: 'Mesh has self-intersections' }, 400),
        json({ status: 'error', message: 'Queue full' }),
        json({ status: 'queued' }),
        json({}, 502),
      );
    const { deps, store } = makeDeps(server);
    await volumeModel(deps);
    await runAnalysis(deps);
    expect(store.get().analysis.error?.title).toBe(`Submission failed: ${INVALID_SURFACE_MESSAGE}`);
    expect(store.get().analysis.error?.notice).toMatch(/watertight, clean surface/);
    await runAnalysis(deps);
    expect(store.get().analysis.error?.title).toBe('Submission failed: Queue full');
    await runAnalysis(deps);
    expect(store.get().analysis.error?.title).toBe('Failed to submit analysis');
    await runAnalysis(deps);
    expect(store.get().analysis.error?.title).toBe('Submission failed: Unknown server error (HTTP 502)');
  });

  it('reports failed jobs, polling failures and the timeout', async () => {
    const base = () =>
      new FakeServer()
        .on('/api/fea/health', json({ status: 'ok' }))
        .on('/api/fea/submit', json({ status: 'queued', job_id: 'j' }));
    const run = async (server: FakeServer) => {
      const d = makeDeps(server);
      await volumeModel(d.deps);
      await runAnalysis(d.deps);
      return d.store.get().analysis;
    };
    let a = await run(base().on('/api/fea/status/j', json({ status: 'failed' })));
    expect(a.error).toEqual({
      title: 'Analysis failed on server',
      detail: 'FEA analysis failed due to invalid geometry or meshing.',
    });
    a = await run(
      base().on('/api/fea/status/j', json({ status: 'failed', error: 'TetGen failed with code 3' })),
    );
    expect(a.error).toMatchObject({ title: 'Analysis failed on server', detail: INVALID_SURFACE_MESSAGE });
    a = await run(base().on('/api/fea/status/j', new Error('Failed to fetch')));
    expect(a.error?.title).toBe('Polling failed after 11 attempts: Failed to fetch');
    a = await run(base().on('/api/fea/status/j', json({ status: 'running', progress: 5 })));
    expect(a.error?.title).toBe(
      'Analysis timed out after 300 seconds. The job may still be running on the server.',
    );
    expect(a.status).toBe('failed');
  });

  it('sends a guest to log in instead of submitting', async () => {
    const server = new FakeServer().on('/api/fea/health', json({ status: 'ok' }));
    let sent = 0;
    const { deps } = makeDeps(server, {
      auth: { isSignedIn: async () => false, sendToLogin: async () => void sent++ },
    });
    await volumeModel(deps);
    await runAnalysis(deps);
    expect(sent).toBe(1);
    expect(server.count('/api/fea/submit')).toBe(0);
  });

  it('handles multi-body results', async () => {
    const ok = { success: true, mesh_name: 'pin', result_data: completedResults };
    const bad = { success: false, mesh_name: 'shell', error: 'no tets' };
    const server = new FakeServer()
      .on('/api/fea/health', json({ status: 'ok' }))
      .on('/api/fea/submit', json({ status: 'queued', job_id: 'm' }))
      .on(
        '/api/fea/status/m',
        json({
          status: 'completed',
          type: 'multi_body',
          results: [bad, ok],
          success_count: 1,
          mesh_count: 2,
        }),
      );
    const { deps, store } = makeDeps(server);
    await volumeModel(deps);
    await runAnalysis(deps);
    const r = store.get().results;
    expect(r).toMatchObject({ multiBody: true, activeBody: 1, successCount: 1, meshCount: 2 });
    expect(() => processResults({ type: 'multi_body', results: [bad] })).toThrow(
      'No successful results found in multi-body analysis',
    );
    expect(() => processResults({ solver_info: {} })).toThrow('No result data available for visualization');
  });
});

describe('meshing (spec 001 §7/§8)', () => {
  const surface = { vertices: tinyVolume.vertices, faces: tinyVolume.faces };
  const base = () => new FakeServer().on('/api/fea/submit', json({ status: 'queued', job_id: 'mj' }));

  it('submits a tetra-only meshingOnly job and loads the tetrahedra', async () => {
    const server = base().on(
      '/api/fea/status/mj',
      json({ status: 'running', progress: 40 }),
      json({ status: 'completed', results: { ...tinyVolume, quality: { min_quality: 0.41 } } }),
    );
    const { deps, store, waits } = makeDeps(server);
    await loadFile(file('s.json', surface), deps);
    expect(await generateVolumeMesh(deps)).toBe(true);
    const body = JSON.parse(server.calls[0]?.init?.body as string);
    expect(body.config).toMatchObject({ analysisType: 'tetra-only', meshingOnly: true, mode: 'tetra-only' });
    expect(waits.slice(0, 2)).toEqual([2000, 2000]);
    expect(store.get().meshing).toMatchObject({ status: 'completed', quality: { min_quality: 0.41 } });
    expect(hasVolumeMesh(store.get().model)).toBe(true);
    expect(statusChip(store.get()).text).toBe('Meshing: completed');
  });

  it('Cancel stops the watch and asks the server to stop the meshing job', async () => {
    const server = base()
      .on('/api/fea/status/mj', json({ status: 'running', progress: 10 }))
      .on('/api/fea/cancel/mj', json({ status: 'cancelling' }));
    const controller = new AbortController();
    let polls = 0;
    const { deps, store } = makeDeps(server, {
      wait: async () => {
        if (++polls === 3) controller.abort();
        if (controller.signal.aborted) throw new AbortedError();
      },
    });
    await loadFile(file('s.json', surface), deps);
    expect(await generateVolumeMesh(deps, controller.signal)).toBe(false);
    expect(store.get().meshing).toMatchObject({ status: 'idle', notice: 'Meshing cancelled.' });
    const cancel = server.calls.find((c) => c.path === '/api/fea/cancel/mj');
    expect(cancel?.init?.method).toBe('POST');
    expect(server.count('/api/fea/status/mj')).toBe(2);
  });

  it('on failure shows problem markers from /results/tetra_output.json', async () => {
    const markers = {
      format: 'problem_markers',
      format_version: 1,
      meshing_failed: true,
      vertices: tinyVolume.vertices,
      faces: tinyVolume.faces,
      problem_vertices: [1],
      problem_faces: [2, 3],
      diagnostics: ['2 faces intersect'],
    };
    const server = base()
      .on('/api/fea/status/mj', json({ status: 'failed', error: 'Surface self-intersections found' }))
      .on('/results/tetra_output.json', json(markers));
    const { deps, store, viewerCalls } = makeDeps(server);
    await loadFile(file('s.json', surface), deps);
    expect(await generateVolumeMesh(deps)).toBe(false);
    const m = store.get().meshing;
    expect(m.error).toEqual({ title: 'Tetrahedralization failed', detail: INVALID_SURFACE_MESSAGE });
    expect(m.message).toBe('Mesh generation failed - check geometry');
    expect(m.notice).toBe('Meshing failed – highlighting problem areas reported by TetGen.');
    expect(statusChip(store.get()).text).toBe('Meshing Failed');
    const marked = viewerCalls.at(-1)?.payload as { problemMarkers: { faces: Uint32Array } };
    expect(Array.from(marked.problemMarkers.faces)).toEqual([2, 3]);
    expect(server.calls.find((c) => c.path.startsWith('/results/tetra_output.json'))?.init?.cache).toBe(
      'no-store',
    );
  });

  it('names the mesher actually used, and keeps the surface when there are no diagnostics', async () => {
    const server = base()
      .on('/api/fea/status/mj', json({ status: 'failed', error: 'boom' }))
      .on(
        '/results/tetra_output.json',
        json({
          vertices: [[0, 0, 0]],
          faces: [],
          problem_faces: [],
          problem_vertices: [0],
          diagnostics: { mesher: 'gmsh (HXT)' },
        }),
      );
    const { deps, store } = makeDeps(server);
    await loadFile(file('s.json', surface), deps);
    await generateVolumeMesh(deps);
    expect(store.get().meshing.notice).toBe(
      'Meshing failed – highlighting problem areas reported by gmsh (HXT).',
    );

    const none = base()
      .on('/api/fea/status/mj', json({ status: 'failed' }))
      .on('/results/tetra_output.json', json({}, 404));
    const d = makeDeps(none);
    await loadFile(file('s.json', surface), d.deps);
    await generateVolumeMesh(d.deps);
    expect(d.store.get().meshing.notice).toBeUndefined();
    expect(d.viewerCalls.at(-1)?.kind).toBe('load');
  });

  it('reports no tetrahedra, polling failure, timeout and a failed submission', async () => {
    const run = async (server: FakeServer) => {
      const d = makeDeps(server);
      await loadFile(file('s.json', surface), d.deps);
      await generateVolumeMesh(d.deps);
      return d.store.get().meshing.error?.title;
    };
    expect(
      await run(
        base().on(
          '/api/fea/status/mj',
          json({ status: 'completed', results: { vertices: [], tetrahedra: [] } }),
        ),
      ),
    ).toBe('Backend returned no tetrahedra – cannot visualise volume mesh');
    expect(await run(base().on('/api/fea/status/mj', new Error('offline')))).toBe(
      'Tetrahedralization polling failed',
    );
    expect(await run(base().on('/api/fea/status/mj', json({ status: 'running' })))).toBe(
      'Tetrahedralization timed out',
    );
    expect(
      await run(new FakeServer().on('/api/fea/submit', json({ error: 'x', message: 'nope' }, 400))),
    ).toBe('Automatic tetrahedralization failed');
  });
});

describe('resuming after a reload (generic wait, spec 001 §9)', () => {
  // each test is its own tab: the running job and the submitted jobs' names are per tab
  beforeEach(() => sessionStorage.clear());

  it('watches the remembered analysis every 3 s and shows its results', async () => {
    const server = new FakeServer()
      .on('/api/fea/health', json({ status: 'ok' }))
      .on('/api/fea/submit', json({ status: 'queued', job_id: 'r1' }))
      .on('/api/fea/status/r1', new Error('reloading'));
    const first = makeDeps(server);
    await loadFile(file('v.json', tinyVolume), first.deps);
    const controller = new AbortController();
    let polls = 0;
    first.deps.wait = async () => {
      if (++polls === 2) controller.abort();
      if (controller.signal.aborted) throw new AbortedError();
    };
    await runAnalysis(first.deps, controller.signal); // the page goes away while the job runs

    const after = new FakeServer().on(
      '/api/fea/status/r1',
      json({ status: 'running', progress: 60 }),
      json({ status: 'completed', results: completedResults }),
    );
    const second = makeDeps(after);
    expect(await resumeAnalysis(second.deps)).toBe(true);
    expect(second.waits.slice(0, 2)).toEqual([3000, 3000]);
    expect(second.store.get().analysis.status).toBe('completed');
    expect(second.store.get().model?.fileName).toBe('v.json');
    expect(await resumeAnalysis(makeDeps(after).deps)).toBe(false);
  });

  it('a job opened from Recent Activity puts its run settings back into the form (qa29: the form read DC)', async () => {
    const analysis_config = {
      analysisType: 'em',
      frequency: 10e9,
      meshOrder: 2,
      useWavePorts: true,
      wavePorts: [{ portID: 1, faces: [1], mode: 'TE10' }],
    };
    const server = new FakeServer().on(
      '/api/fea/status/j1',
      json({ status: 'completed', results: { ...completedResults, analysis_config } }),
    );
    const { deps, store } = makeDeps(server);
    await openJob(deps, 'j1');
    expect(store.get().analysis.status).toBe('completed');
    expect(store.get().form.frequencyHz).toBe(10e9);
    expect(store.get().form.meshOrder).toBe(2);
    expect(store.get().form.wavePorts.map((p) => p.faces)).toEqual(['1']);
    expect(store.get().formRestore?.fileName).toBe('job j1');
  });

  it('a job this tab submitted keeps its file name when reopened from the address (qa30: "job 1a2b3c4d")', async () => {
    const server = new FakeServer()
      .on('/api/fea/health', json({ status: 'ok' }))
      .on('/api/fea/submit', json({ status: 'queued', job_id: 'named-1' }))
      .on('/api/fea/status/named-1', json({ status: 'completed', results: completedResults }));
    const first = makeDeps(server);
    await loadFile(file('bracket.json', tinyVolume), first.deps);
    await runAnalysis(first.deps);
    expect(first.store.get().analysis.status).toBe('completed');

    const reloaded = makeDeps(server); // F5: a new page, the same tab
    const notices: (string | undefined)[] = [];
    reloaded.store.subscribe(() => notices.push(reloaded.store.get().analysis.notice));
    await openJob(reloaded.deps, 'named-1');
    expect(notices[0]).toBe('Opening bracket.json…');
    expect(reloaded.store.get().model?.fileName).toBe('bracket.json');
    // a job this tab never submitted is still shown under its id
    const other = makeDeps(
      new FakeServer().on(
        '/api/fea/status/abcdef123456',
        json({ status: 'completed', results: completedResults }),
      ),
    );
    await openJob(other.deps, 'abcdef123456');
    expect(other.store.get().model?.fileName).toBe('job abcdef12');
  });

  it('a reopened job that was cancelled or failed says it has no results (qa30: an empty page after F5)', async () => {
    const cancelled = makeDeps(new FakeServer().on('/api/fea/status/c1', json({ status: 'cancelled' })));
    await openJob(cancelled.deps, 'c1');
    expect(cancelled.store.get().analysis).toMatchObject({
      status: 'idle',
      notice: 'Analysis cancelled. job c1 has no results to show; load the model again to run it.',
    });
    const failed = makeDeps(
      new FakeServer().on('/api/fea/status/f1', json({ status: 'failed', error: 'Solver diverged' })),
    );
    await openJob(failed.deps, 'f1');
    expect(failed.store.get().analysis.status).toBe('failed');
    expect(failed.store.get().analysis.error?.title).toBe('Analysis failed on server');
    expect(failed.store.get().analysis.notice).toBe(
      'job f1 has no results to show; load the model again to run it.',
    );
  });

  it('a new upload while a job opens does not say "Analysis cancelled." (qa31); stopping the watch alone does', async () => {
    const server = new FakeServer().on('/api/fea/status/o1', json({ status: 'running', progress: 10 }));
    const { deps, store } = makeDeps(server);
    deps.wait = async () => {
      await loadFile(file('v.json', tinyVolume), deps); // the user drops another model meanwhile
      throw new AbortedError();
    };
    await openJob(deps, 'o1');
    expect(store.get().model?.fileName).toBe('v.json');
    expect(store.get().analysis.status).toBe('idle');
    expect(store.get().analysis.notice).toBeUndefined();

    const stopped = makeDeps(server);
    stopped.deps.wait = async () => {
      throw new AbortedError();
    };
    await openJob(stopped.deps, 'o1');
    expect(stopped.store.get().analysis.notice).toBe('Analysis cancelled.');
  });

  it('the "Opening job …" notice goes once the job has loaded (qa29: it stayed beside the results)', async () => {
    const server = new FakeServer().on(
      '/api/fea/status/j2',
      json({ status: 'running', progress: 40 }),
      json({ status: 'completed', results: completedResults }),
    );
    const { deps, store } = makeDeps(server);
    const notices: (string | undefined)[] = [];
    store.subscribe(() => notices.push(store.get().analysis.notice));
    await openJob(deps, 'j2');
    expect(notices[0]).toBe('Opening job j2…');
    expect(store.get().analysis.status).toBe('completed');
    expect(store.get().analysis.notice).toBeUndefined();
    expect(store.get().analysis.jobId).toBe('j2');
  });
});
