import { AnalysisConfig } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import type { AnalysisForm } from '../../src/environment/config/analysis-form.ts';
import { chainSourceLabel } from '../../src/environment/config/common/chain-sources.ts';
import { defaultAnalysisForm } from '../../src/environment/config/form-defaults.ts';
import { fromBackendConfig } from '../../src/environment/config/from-backend-config.ts';
import { toBackendConfig } from '../../src/environment/config/to-backend-config.ts';
import { newStructuralRows } from '../../src/environment/families/structural/structural-form.ts';
import { newThermalRows } from '../../src/environment/families/thermal/thermal-form.ts';

const bodies = [{ region: 0, name: 'bar' }];
const SOURCE = '3f1c2a4e-8b7d-4c3e-9a1b-2d4f6e8a0c1e';

/** Form → backend config (valid for the contract) → form → the same backend config. */
function roundTrip(form: AnalysisForm) {
  const backend = toBackendConfig(form, { bodies });
  const parsed = AnalysisConfig.safeParse(backend);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  const { form: back, reset } = fromBackendConfig(JSON.parse(JSON.stringify(backend)));
  expect(reset).toEqual([]);
  expect(toBackendConfig(back, { bodies })).toEqual(backend);
  return { backend, back };
}

const supported = (): AnalysisForm => ({
  ...defaultAnalysisForm(),
  meshOrder: 2,
  bodyMaterials: { 0: 'aluminium' },
  structuralSupports: [
    { ...newStructuralRows.support(0), name: 'end A', faces: '1' },
    { ...newStructuralRows.support(1), name: 'end B', faces: '2' },
  ],
});

describe('structural "Temperature from" (docs/multiphysics.md §7)', () => {
  it('none sends no thermal keys and no expansion coefficient', () => {
    const { backend } = roundTrip({
      ...supported(),
      physics: 'structural',
      structuralLoads: [{ ...newStructuralRows.load(0), faces: '3' }],
    });
    expect(backend.temperatureLoad).toBeUndefined();
    expect(backend.fieldsFrom).toBeUndefined();
    expect(backend.bodyMaterials?.[0]).not.toHaveProperty('thermalExpansion');
  });

  it('uniform sends temperatureLoad {uniform}, the stress-free temperature and each body α', () => {
    const { backend, back } = roundTrip({
      ...supported(),
      physics: 'structural',
      structuralTemperatureFrom: 'uniform',
      structuralTemperature: '393.15',
      structuralReferenceTemperature: '293',
      bodyOverrides: { 0: { thermalExpansion: '2.4e-5' } },
    });
    expect(backend).toMatchObject({
      analysisType: 'structural',
      temperatureLoad: { uniform: 393.15 },
      referenceTemperature: 293,
    });
    expect(backend.fieldsFrom).toBeUndefined();
    expect(backend.bodyMaterials?.[0]).toMatchObject({ material: 'aluminium', thermalExpansion: 2.4e-5 });
    expect(back.structuralTemperatureFrom).toBe('uniform');
    expect(back.bodyOverrides[0]?.thermalExpansion).toBe('0.000024');
  });

  it('a thermal job sends fieldsFrom {jobId, fields: ["temperature"]}; no job chosen sends nothing', () => {
    const { backend, back } = roundTrip({
      ...supported(),
      physics: 'structural',
      structuralTemperatureFrom: 'job',
      structuralTemperatureJob: SOURCE,
    });
    expect(backend.fieldsFrom).toEqual({ jobId: SOURCE, fields: ['temperature'] });
    expect(backend.temperatureLoad).toBeUndefined();
    expect(backend.referenceTemperature).toBe(293.15);
    expect([back.structuralTemperatureFrom, back.structuralTemperatureJob]).toEqual(['job', SOURCE]);
    const unchosen = toBackendConfig(
      { ...supported(), physics: 'structural', structuralTemperatureFrom: 'job' },
      { bodies },
    );
    expect(unchosen.fieldsFrom).toBeUndefined();
  });

  it('a vibration or thermal stress run never sends the structural thermal load', () => {
    const form = { ...supported(), structuralTemperatureFrom: 'uniform' as const };
    for (const physics of ['vibration', 'thermal-stress'] as const) {
      const backend = toBackendConfig({ ...form, physics }, { bodies });
      expect(backend.temperatureLoad, physics).toBeUndefined();
      expect(backend.fieldsFrom, physics).toBeUndefined();
    }
  });
});

describe('thermal transient "Initial temperature from"', () => {
  const transient = (): AnalysisForm => ({
    ...defaultAnalysisForm(),
    physics: 'thermal',
    thermalTransient: true,
    thermalConditions: [{ ...newThermalRows.condition(0, 'convection'), faces: '1, 2', value: '25' }],
    thermalInitialFrom: 'job',
    thermalInitialJob: SOURCE,
  });

  it('a steady source: fieldsFrom without a frame', () => {
    const { backend, back } = roundTrip(transient());
    expect(backend).toMatchObject({
      analysisType: 'thermal-time',
      fieldsFrom: { jobId: SOURCE, fields: ['temperature'] },
    });
    expect(backend.fieldsFrom).not.toHaveProperty('frame');
    expect([back.thermalInitialFrom, back.thermalInitialJob, back.thermalInitialFrame]).toEqual([
      'job',
      SOURCE,
      '',
    ]);
  });

  it('a transient source: the frame index or "last"', () => {
    expect(roundTrip({ ...transient(), thermalInitialFrame: '4' }).backend.fieldsFrom).toEqual({
      jobId: SOURCE,
      fields: ['temperature'],
      frame: 4,
    });
    const { backend, back } = roundTrip({ ...transient(), thermalInitialFrame: 'Last' });
    expect(backend.fieldsFrom?.frame).toBe('last');
    expect(back.thermalInitialFrame).toBe('last');
  });

  it('a steady run takes no start (fieldsFrom is for the transient only)', () => {
    const backend = toBackendConfig({ ...transient(), thermalTransient: false }, { bodies });
    expect(backend.fieldsFrom).toBeUndefined();
  });
});

describe('modal "Prestressed" and "Prestress from"', () => {
  const modal = (): AnalysisForm => ({
    ...supported(),
    physics: 'vibration',
    vibrationKind: 'modal',
    structuralSupports: [{ ...newStructuralRows.support(0), name: 'end A', faces: '1' }],
    structuralLoads: [{ ...newStructuralRows.load(0), name: 'pull', faces: '2', force: ['1000', '0', '0'] }],
  });

  it('without prestress the loads stay out of a modal run', () => {
    const { backend } = roundTrip(modal());
    expect(backend.forceLoads).toEqual([]);
    expect(backend.prestress ?? false).toBe(false);
  });

  it('prestressed by its own loads: prestress true with the supports and loads', () => {
    const { backend, back } = roundTrip({ ...modal(), vibrationPrestress: 'loads' });
    expect(backend).toMatchObject({
      analysisType: 'modal',
      prestress: true,
      forceLoads: [{ faces: [2], force: [1000, 0, 0], name: 'pull' }],
    });
    expect(back.vibrationPrestress).toBe('loads');
  });

  it('prestress from a structural job: fieldsFrom {stress}, no loads', () => {
    const { backend, back } = roundTrip({
      ...modal(),
      vibrationPrestress: 'job',
      vibrationPrestressJob: SOURCE,
    });
    expect(backend.fieldsFrom).toEqual({ jobId: SOURCE, fields: ['stress'] });
    expect(backend.forceLoads).toEqual([]);
    expect(backend.prestress ?? false).toBe(false);
    expect([back.vibrationPrestress, back.vibrationPrestressJob]).toEqual(['job', SOURCE]);
  });
});

describe('a chain source in the picker', () => {
  it('names the analysis, the peak and the frames', () => {
    const label = chainSourceLabel(
      {
        job_id: SOURCE,
        analysis_type: 'thermal-time',
        finished_at: '2026-12-07T06:41:00Z',
        frames: 11,
        max_temperature_K: 351.234,
        max_von_mises_Pa: null,
      },
      'temperature',
    );
    expect(label).toContain('thermal-time');
    expect(label).toContain('max 351.2 K');
    expect(label).toContain('11 frames');
  });
});
