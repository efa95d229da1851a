import { AnalysisConfig } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import type { AnalysisForm } from '../../src/environment/config/analysis-form.ts';
import { defaultAnalysisForm } from '../../src/environment/config/form-defaults.ts';
import { fromBackendConfig } from '../../src/environment/config/from-backend-config.ts';
import { toBackendConfig } from '../../src/environment/config/to-backend-config.ts';
import { newEmRows } from '../../src/environment/families/em/em-form.ts';
import { newStructuralRows } from '../../src/environment/families/structural/structural-form.ts';
import { newThermalRows } from '../../src/environment/families/thermal/thermal-form.ts';

const bodies = [{ region: 0, name: 'bar' }];

describe('the thermal stress form (families/thermal-stress)', () => {
  it('sends the bus bar as one thermal-structural run and reads it back', () => {
    const form: AnalysisForm = {
      ...defaultAnalysisForm(),
      physics: 'thermal-stress',
      meshOrder: 2,
      bodyMaterials: { 0: 'copper' },
      jouleHeating: true,
      dirichletFaceGroups: [
        { ...newEmRows.dirichletFaceGroup(0), faces: '1', voltage: '0.01' },
        { ...newEmRows.dirichletFaceGroup(1), faces: '2', voltage: '0' },
      ],
      thermalConditions: [
        {
          ...newThermalRows.condition(0, 'convection'),
          name: 'air',
          faces: '3, 4',
          value: '10',
          ambient: '293.15',
        },
      ],
      structuralSupports: [
        { ...newStructuralRows.support(0), name: 'clamp A', faces: '1' },
        { ...newStructuralRows.support(1), name: 'clamp B', faces: '2' },
      ],
      thermalStressReference: '295',
      // the thermal form's transient switch does not apply: the temperature is steady
      thermalTransient: true,
    };
    const backend = toBackendConfig(form, { bodies });
    expect(
      AnalysisConfig.safeParse(backend).success,
      JSON.stringify(AnalysisConfig.safeParse(backend).error),
    ).toBe(true);
    expect(backend).toMatchObject({
      analysisType: 'thermal-structural',
      transient: false,
      jouleHeating: true,
      referenceTemperature: 295,
      dirichletFaceConditions: [
        { faces: [1], voltage: 0.01 },
        { faces: [2], voltage: 0 },
      ],
      convectionConditions: [{ faces: [3, 4], coefficient: 10, ambientTemperature: 293.15, name: 'air' }],
      fixedSupports: [
        { faces: [1], name: 'clamp A' },
        { faces: [2], name: 'clamp B' },
      ],
    });
    // one material row per body with both families' properties and the expansion coefficient
    expect(backend.bodyMaterials?.[0]).toMatchObject({
      material: 'copper',
      conductivity: 5.8e7,
      thermalConductivity: 401,
      youngsModulus: 117e9,
      thermalExpansion: 16.5e-6,
    });
    const { form: back, reset } = fromBackendConfig(JSON.parse(JSON.stringify(backend)));
    expect([back.physics, reset]).toEqual(['thermal-stress', []]);
    expect(back.thermalStressReference).toBe('295');
    expect(toBackendConfig(back, { bodies })).toEqual(backend);
  });
});
