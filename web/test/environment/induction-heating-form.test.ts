import { AnalysisConfig } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import type { AnalysisForm } from '../../src/environment/config/analysis-form.ts';
import { defaultAnalysisForm } from '../../src/environment/config/form-defaults.ts';
import { fromBackendConfig } from '../../src/environment/config/from-backend-config.ts';
import { toBackendConfig } from '../../src/environment/config/to-backend-config.ts';
import { newMagneticsRows } from '../../src/environment/families/em/magnetics/magnetics-form.ts';
import { newThermalRows } from '../../src/environment/families/thermal/thermal-form.ts';
import { faceMarks } from '../../src/environment/viewer-bridge/face-marks.ts';

const bodies = [
  { region: 0, name: 'billet' },
  { region: 1, name: 'gap' },
  { region: 2, name: 'coil' },
  { region: 3, name: 'air' },
];

const withoutKeys = (v: unknown) =>
  JSON.parse(JSON.stringify(v, (k, x) => (k === 'key' || k === 'coilKey' ? undefined : x)));

/** A steel billet in a 20-turn coil at 10 kHz, the air around it its own bodies, convection on the billet. */
function billetForm(): AnalysisForm {
  const f = defaultAnalysisForm();
  const ring = {
    ...newMagneticsRows.coil(0, '2'),
    name: 'coil',
    turns: '20',
    current: '200',
    axis: ['0', '0', '1'] as AnalysisForm['torqueAxisOrigin'],
  };
  const lead = {
    ...newMagneticsRows.coil(1, '1'),
    name: 'lead',
    turns: '1',
    current: '5',
    routing: 'terminals' as const,
  };
  return {
    ...f,
    physics: 'thermal',
    inductionHeating: true,
    eddyFrequencyHz: '10000',
    coils: [ring, lead],
    coilTerminals: [
      { ...newMagneticsRows.terminal(lead.key, 'in'), faces: '7' },
      { ...newMagneticsRows.terminal(lead.key, 'out'), faces: '8' },
    ],
    solidConductors: [
      { ...newMagneticsRows.solidConductor(0, '0'), name: 'feed', current: '30', phase: '90' },
    ],
    magneticBoundaries: [{ ...newMagneticsRows.boundary(), faces: '1, 2, 3' }],
    airPadding: '0',
    thermalConditions: [{ ...newThermalRows.condition(0, 'convection'), faces: '4, 5', value: '25' }],
    bodyMaterials: { 0: 'steel', 1: 'vacuum', 2: 'copper', 3: 'vacuum' },
    // the billet above its Curie point: μr 1, σ of hot steel
    bodyOverrides: { 0: { relativePermeability: '1', conductivity: '1000000' } },
    // the EM form's own materials and forces are not the thermal run's
    magneticBodies: {
      0: {
        kind: 'iron',
        relativePermeability: '1',
        curve: 'm19-steel',
        table: '',
        remanence: ['0', '0', '1'],
        conductivity: '9',
      },
    },
    forceBodies: [0],
  };
}

describe('the thermal form with induction heating', () => {
  it("sends inductionHeating with the eddy-current keys and each body's σ and μr in one material table", () => {
    const config = toBackendConfig(billetForm(), { bodies });
    expect(AnalysisConfig.safeParse(config).success).toBe(true);
    expect(config).toMatchObject({
      analysisType: 'thermal',
      inductionHeating: true,
      jouleHeating: false,
      // the thermal run's own frequency, not the EM family's idle 0
      frequency: 10000,
      coils: [
        { name: 'coil', region: 2, turns: 20, current: 200, phase: 0, axis: [0, 0, 1] },
        { name: 'lead', region: 1, turns: 1, current: 5, terminals: { in: [7], out: [8] } },
      ],
      solidConductors: [{ name: 'feed', region: 0, current: 30, phase: 90 }],
      magneticBoundaries: [{ faces: [1, 2, 3], type: 'flux-normal' }],
      airPadding: 0,
      convectionConditions: [{ faces: [4, 5], coefficient: 25, ambientTemperature: 293.15 }],
    });
    expect(config.bodyMaterials).toEqual([
      {
        region: 0,
        name: 'billet',
        material: 'steel',
        thermalConductivity: 50,
        density: 7850,
        heatCapacity: 470,
        conductivity: 1e6,
        relativePermeability: 1,
      },
      expect.objectContaining({ region: 1, material: 'vacuum', conductivity: 0, relativePermeability: 1 }),
      expect.objectContaining({
        region: 2,
        material: 'copper',
        conductivity: 5.8e7,
        relativePermeability: 1,
      }),
      expect.objectContaining({ region: 3, material: 'vacuum', conductivity: 0 }),
    ]);
    // no B–H curve, no force bodies: magnetostatic-only keys stay out of a heating run
    expect(config).not.toHaveProperty('forceBodies');
    expect(JSON.stringify(config.bodyMaterials)).not.toContain('bhCurve');
  });

  it('sends none of the eddy-current keys and no permeability with the switch off', () => {
    const config = toBackendConfig({ ...billetForm(), inductionHeating: false }, { bodies });
    expect(config.inductionHeating).toBe(false);
    expect(config.frequency).toBe(0);
    expect(config).not.toHaveProperty('coils');
    expect(config.bodyMaterials?.[0]).not.toHaveProperty('relativePermeability');
    expect(config.bodyMaterials?.[0]).not.toHaveProperty('conductivity');
  });

  it('reads a saved induction-heated run back into the same form (round trip)', () => {
    const form = billetForm();
    const config = toBackendConfig(form, { bodies });
    const { form: back, reset } = fromBackendConfig(JSON.parse(JSON.stringify(config)));
    expect(reset).toEqual([]);
    expect(back.physics).toBe('thermal');
    expect(back.inductionHeating).toBe(true);
    expect(toBackendConfig(back, { bodies })).toEqual(config);
    const pick = (f: AnalysisForm) =>
      withoutKeys({
        coils: f.coils,
        coilTerminals: f.coilTerminals,
        solidConductors: f.solidConductors,
        magneticBoundaries: f.magneticBoundaries,
        eddyFrequencyHz: f.eddyFrequencyHz,
        airPadding: f.airPadding,
        bodyMaterials: f.bodyMaterials,
        bodyOverrides: f.bodyOverrides,
      });
    expect(pick(back)).toEqual(pick(form));
    const lead = back.coils.find((c) => c.name === 'lead');
    expect(back.coilTerminals.every((t) => t.coilKey === lead?.key)).toBe(true);
  });

  it("marks the coil's terminals and the flux boundaries beside the thermal conditions", () => {
    const marks = faceMarks(billetForm(), null, false);
    expect(marks.map((m) => [m.faces, m.tone])).toEqual([
      [[4, 5], 'other'],
      [[7], 'load'],
      [[8], 'load'],
      [[1, 2, 3], 'constraint'],
    ]);
    const off = faceMarks({ ...billetForm(), inductionHeating: false }, null, false);
    expect(off.flatMap((m) => m.faces)).toEqual([4, 5]);
  });
});
