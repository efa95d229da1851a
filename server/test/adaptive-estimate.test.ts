import { AnalysisConfig, describeEstimate, estimateResources, MeshData } from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateSeconds } from '../src/billing/job-estimate.ts';
import { boxMesh, facesOnPlane } from './support/box-mesh.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

/** Adaptive refinement (docs/adaptive.md) may grow the model up to `maxUnknowns`: the run estimate before
 * Run says so, and memory and time are estimated, checked and charged for that size. */

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp({ JOB_MEMORY_LIMIT_MB: '1536' });
  cookie = (await registerTestUser(t.app)).cookie;
});
afterAll(async () => {
  await t.close();
});

const mesh = boxMesh([1, 0.2, 0.1], [10, 2, 1]);
const thermal = {
  analysisType: 'thermal',
  temperatureConditions: [
    { faces: facesOnPlane(mesh, 0, 0), temperature: 300 },
    { faces: facesOnPlane(mesh, 0, 1), temperature: 400 },
  ],
};

describe('run estimate with adaptive refinement', () => {
  it('estimates memory and time at maxUnknowns and says the model may grow', () => {
    const fixed = AnalysisConfig.parse(thermal);
    const adaptive = AnalysisConfig.parse({
      ...thermal,
      adaptiveRefinement: { tolerance: 0.01, maxUnknowns: 50_000 },
    });
    const a = estimateResources(mesh, fixed);
    const b = estimateResources(mesh, adaptive);
    expect(b.startUnknowns).toBe(a.unknowns);
    expect(b.unknowns).toBe(50_000);
    expect(b.memoryBytes).toBeGreaterThan(a.memoryBytes);
    expect(describeEstimate(b)).toMatch(/adaptive refinement may grow it to 50 k/);
    const meshData = MeshData.parse(mesh);
    const fixedSeconds = estimateSeconds(meshData, fixed, 0);
    const adaptiveSeconds = estimateSeconds(meshData, adaptive, 0);
    console.log(`estimate: fixed ${fixedSeconds} s, adaptive up to 50 k unknowns ${adaptiveSeconds} s`);
    expect(adaptiveSeconds).toBeGreaterThan(fixedSeconds);
  });

  it('applies the defaults (8 passes, 200 k unknowns, Dörfler fraction 0.3) and refuses bad settings', () => {
    const parsed = AnalysisConfig.parse({ ...thermal, adaptiveRefinement: { tolerance: 0.02 } });
    expect(parsed.adaptiveRefinement).toEqual({
      tolerance: 0.02,
      maxPasses: 8,
      maxUnknowns: 200_000,
      fraction: 0.3,
    });
    expect(AnalysisConfig.safeParse({ ...thermal, adaptiveRefinement: { tolerance: 2 } }).success).toBe(
      false,
    );
    expect(AnalysisConfig.safeParse({ ...thermal, adaptiveRefinement: { maxPasses: 0 } }).success).toBe(
      false,
    );
    expect(AnalysisConfig.safeParse({ ...thermal, adaptiveRefinement: { fraction: 0 } }).success).toBe(false);
  });

  it('accepts harmonic, eddy-current and transient thermal runs and estimates them at the size limit', async () => {
    const support = { fixedSupports: [{ faces: facesOnPlane(mesh, 0, 0) }] };
    const load = { forceLoads: [{ faces: facesOnPlane(mesh, 0, 1), force: [0, 0, -1] }] };
    const configs = {
      harmonic: { analysisType: 'harmonic', ...support, ...load, harmonicFreqMax: 100, meshOrder: 2 },
      'eddy-current': {
        analysisType: 'eddy-current',
        frequency: 50,
        meshOrder: 2,
        solidConductors: [{ region: 0, current: 1 }],
        bodyMaterials: [{ region: 0, conductivity: 5.8e7 }],
      },
      'thermal-time': { ...thermal, analysisType: 'thermal-time', timeStep: 1, endTime: 60 },
      'em-time': {
        analysisType: 'em-time',
        timeStep: 1e-11,
        endTime: 4e-9,
        pulseShape: 'modulated_gaussian',
        pulseFrequency: 5e9,
        volumeCurrents: [{ density: [0, 1, 0] }],
      },
    };
    const meshData = MeshData.parse(mesh);
    for (const [name, base] of Object.entries(configs)) {
      const fixed = AnalysisConfig.parse(base);
      const adaptive = AnalysisConfig.parse({
        ...base,
        adaptiveRefinement: { tolerance: 0.01, maxUnknowns: 40_000 },
      });
      const grown = estimateResources(mesh, adaptive);
      expect(grown.startUnknowns, name).toBe(estimateResources(mesh, fixed).unknowns);
      expect(grown.unknowns, name).toBe(40_000);
      const fixedSeconds = estimateSeconds(meshData, fixed, 0);
      const adaptiveSeconds = estimateSeconds(meshData, adaptive, 0);
      console.log(
        `${name}: estimate fixed ${fixedSeconds} s, adaptive up to 40 k unknowns ${adaptiveSeconds} s`,
      );
      expect(adaptiveSeconds, name).toBeGreaterThan(fixedSeconds);
      if (name === 'em-time') {
        // every pass runs the whole transient (no reduced pass, no final sweep): twice the run, twice the passes
        const longer = AnalysisConfig.parse({ ...adaptive, endTime: 2 * adaptive.endTime });
        expect((estimateSeconds(meshData, longer, 0) - 30) / (adaptiveSeconds - 30)).toBeCloseTo(2, 1);
        // its spectrum (S) comes from each pass's own signals: the passes cost what the run costs with it, none
        // is reduced to one frequency and no sweep follows (a long order-2 run: whole seconds to compare)
        const seconds = (c: object) => estimateSeconds(meshData, AnalysisConfig.parse(c), 0) - 30;
        const long = { ...base, meshOrder: 2, endTime: 1e-7 };
        const spectral = { ...long, calculateSParameters: true };
        const refine = { adaptiveRefinement: adaptive.adaptiveRefinement };
        const runRatio = seconds(spectral) / seconds(long);
        const passRatio = seconds({ ...spectral, ...refine }) / seconds({ ...long, ...refine });
        console.log(`em-time with S: run ×${runRatio.toFixed(2)}, adaptive passes ×${passRatio.toFixed(2)}`);
        expect(passRatio / runRatio).toBeCloseTo(1, 1);
      }
      // the route takes the config (a size limit over the job memory would be refused before this); a user
      // each, under the plan's two runs at once
      const user = await registerTestUser(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/fea/submit',
        payload: { mesh_data: mesh, config: adaptive },
        headers: { cookie: user.cookie },
      });
      expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(300);
    }
  });

  it('refuses a run whose size limit would not fit in the job memory, before anything is stored', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: {
        mesh_data: mesh,
        config: {
          ...thermal,
          meshOrder: 2,
          adaptiveRefinement: { tolerance: 0.01, maxUnknowns: 20_000_000 },
        },
      },
      headers: { cookie },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('memory_estimate_over_limit');
    expect(res.json().message).toMatch(/20,000,000 unknowns/);
  });
});
