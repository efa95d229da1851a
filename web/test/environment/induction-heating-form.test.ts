import { AnalysisConfig } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import type { AnalysisForm } from '../../src/environment/config/analysis-form.ts';
import { defaultAnalysisForm } from '../../src/environment/config/form-defaults.ts';
import { fromBackendConfig } from '../../src/environment/config/from-backend-config.ts';
import { toBackendConfig } from '../../src/environment/config/to-backend-config.ts';
import {
  defaultMagneticBody,
  newMagneticsRows,
} from '../../src/environment/families/em/magnetics/magnetics-form.ts';
import { magneticsToBackend } from '../../src/environment/families/em/magnetics/magnetics-to-backend.ts';
import {
  inductionMagneticOverrides,
  inductionMaterialDefaults,
} from '../../src/environment/families/thermal/induction-materials.ts';
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
    // the EM form's own forces are not the thermal run's; its materials' σ and μr are, under the values typed
    // above (the billet's 9 S/m below loses to the typed 1e6)
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

describe('induction heating: materials of bodies left without a choice', () => {
  const unchosen = (): AnalysisForm => ({ ...billetForm(), bodyMaterials: {}, bodyOverrides: {} });
  const materialOf = (config: ReturnType<typeof toBackendConfig>, region: number) =>
    (config.bodyMaterials as { region: number; material: string; conductivity?: number }[]).find(
      (m) => m.region === region,
    );

  it('takes a winding and a fed conductor as copper, a body named air as air and the workpiece as steel', () => {
    const named = [
      { region: 0, name: 'billet' },
      { region: 1, name: 'lead' },
      { region: 2, name: 'coil' },
      { region: 3, name: 'Air region' },
      { region: 4, name: 'aluminium plate' },
    ];
    // the fed conductor is body 4 here; body 0 is only heated
    const form = { ...unchosen(), solidConductors: [{ ...unchosen().solidConductors[0]!, body: '4' }] };
    const assumed = inductionMaterialDefaults(form, named);
    console.log(`[induction] assumed: ${JSON.stringify(assumed)}`);
    expect(assumed).toEqual({
      0: { id: 'steel', reason: 'the workpiece: no material chosen' },
      1: { id: 'copper', reason: "a coil's winding" },
      2: { id: 'copper', reason: "a coil's winding" },
      3: { id: 'vacuum', reason: 'named air' },
      4: { id: 'copper', reason: 'a solid conductor' },
    });
    const config = toBackendConfig(form, { bodies: named });
    expect(materialOf(config, 2)).toMatchObject({ material: 'copper', conductivity: 5.8e7 });
    expect(materialOf(config, 3)).toMatchObject({ material: 'vacuum', conductivity: 0 });
    expect(materialOf(config, 0)?.material).toBe('steel');
    // without a coil or conductor in it, a body named after a library material is that material
    const plain = inductionMaterialDefaults({ ...form, solidConductors: [] }, named);
    expect(plain[4]).toEqual({ id: 'aluminium', reason: 'named aluminium' });
  });

  it('keeps an explicit choice, and assumes nothing without induction heating (the thermal default stays steel)', () => {
    const chosen = { ...unchosen(), bodyMaterials: { 2: 'aluminium' } };
    expect(inductionMaterialDefaults(chosen, bodies)[2]).toBeUndefined();
    expect(materialOf(toBackendConfig(chosen, { bodies }), 2)?.material).toBe('aluminium');
    const off = { ...unchosen(), inductionHeating: false };
    expect(inductionMaterialDefaults(off, bodies)).toEqual({});
    expect(materialOf(toBackendConfig(off, { bodies }), 3)?.material).toBe('steel');
  });

  it('thermal stress with induction heating assumes the same materials for the elasticity and the expansion', () => {
    const form = { ...unchosen(), physics: 'thermal-stress' as AnalysisForm['physics'] };
    const config = toBackendConfig(form, { bodies });
    expect(config.analysisType).toBe('thermal-structural');
    expect(materialOf(config, 2)).toMatchObject({ material: 'copper', conductivity: 5.8e7 });
    expect(materialOf(config, 3)?.material).toBe('vacuum');
  });
});

describe("induction heating: the Electromagnetic form's magnetic materials", () => {
  const entryOf = (config: ReturnType<typeof toBackendConfig>, region: number) =>
    (config.bodyMaterials as Record<string, unknown>[]).find((m) => m.region === region);

  it('reach the thermal run: σ and μr set for the eddy-current part replace the material’s, a typed value wins', () => {
    const billet = { ...defaultMagneticBody('linear'), relativePermeability: '100', conductivity: '2e6' };
    const core = { ...defaultMagneticBody('iron'), conductivity: '0' };
    const form = { ...billetForm(), bodyOverrides: {}, magneticBodies: { 0: billet, 1: core } };
    // what the eddy-current run itself would solve with
    const eddy = magneticsToBackend(form, { bodies, analysisType: 'eddy-current' });
    expect(eddy.bodyMaterials?.find((m) => m.region === 0)).toMatchObject({
      relativePermeability: 100,
      conductivity: 2e6,
    });
    const thermal = toBackendConfig(form, { bodies });
    expect(entryOf(thermal, 0)).toMatchObject({
      material: 'steel',
      relativePermeability: 100,
      conductivity: 2e6,
    });
    // soft iron: its conductivity (0 here) but not a μr (an eddy-current solve takes μr, not the curve)
    const vacuumMu = entryOf(toBackendConfig(billetForm(), { bodies }), 1)?.relativePermeability;
    expect(entryOf(thermal, 1)).toMatchObject({ conductivity: 0, relativePermeability: vacuumMu });
    expect(inductionMagneticOverrides(form)).toEqual({
      0: { conductivity: '2000000', relativePermeability: '100' },
      1: { conductivity: '0' },
    });
    // a value typed in the thermal Materials group wins over the magnetic material
    const typed = { ...form, bodyOverrides: { 0: { conductivity: '3e6' } } };
    expect(entryOf(toBackendConfig(typed, { bodies }), 0)).toMatchObject({
      relativePermeability: 100,
      conductivity: 3e6,
    });
    // saved and read back: the same config (the values return as the table's typed overrides)
    const { form: back } = fromBackendConfig(JSON.parse(JSON.stringify(thermal)));
    expect(toBackendConfig(back, { bodies })).toEqual(thermal);
    // without induction heating the thermal run sends neither
    expect(inductionMagneticOverrides({ ...form, inductionHeating: false })).toEqual({});
  });
});
