import { AnalysisConfig } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import type { AnalysisForm } from '../../src/environment/config/analysis-form.ts';
import { defaultAnalysisForm } from '../../src/environment/config/form-defaults.ts';
import { fromBackendConfig } from '../../src/environment/config/from-backend-config.ts';
import { toBackendConfig } from '../../src/environment/config/to-backend-config.ts';
import { readBhTable } from '../../src/environment/families/em/magnetics/bh-table.ts';
import {
  defaultMagneticBody,
  newMagneticsRows,
} from '../../src/environment/families/em/magnetics/magnetics-form.ts';
import { faceMarks } from '../../src/environment/viewer-bridge/face-marks.ts';

const bodies = [
  { region: 0, name: 'core' },
  { region: 1, name: 'coil' },
  { region: 2, name: 'magnet' },
  { region: 3, name: 'return bar' },
];

/** Row keys are React identities, generated anew on every restore; everything else must survive. */
const withoutKeys = (v: unknown) =>
  JSON.parse(JSON.stringify(v, (k, x) => (k === 'key' || k === 'coilKey' ? undefined : x)));

/** A magnetostatic form with every magnetics field away from its default. */
function magnetostaticForm(): AnalysisForm {
  const f = defaultAnalysisForm();
  const closed = {
    ...newMagneticsRows.coil(0, '1'),
    name: 'primary',
    turns: '50',
    current: '2',
    axis: ['0', '0', '1'] as AnalysisForm['torqueAxisOrigin'],
  };
  const open = {
    ...newMagneticsRows.coil(1, '3'),
    name: 'bar',
    turns: '1',
    current: '-40',
    routing: 'terminals' as const,
  };
  const wrapping = {
    ...newMagneticsRows.coil(2, '1'),
    name: 'toroid',
    turns: '200',
    current: '0.5',
    routing: 'wraps' as const,
    wraps: '0',
  };
  return {
    ...f,
    physics: 'em',
    analysisType: 'magnetostatic',
    meshOrder: 2,
    coils: [closed, open, wrapping],
    coilTerminals: [
      { ...newMagneticsRows.terminal(open.key, 'in'), faces: '4, 5' },
      { ...newMagneticsRows.terminal(open.key, 'out'), faces: '9' },
    ],
    magneticBodies: {
      0: { ...defaultMagneticBody('iron'), curve: 'm19-steel' },
      2: { ...defaultMagneticBody('magnet'), remanence: ['0', '1.3', '0'], relativePermeability: '1.05' },
      3: { ...defaultMagneticBody('iron'), curve: 'table', table: '[[0,0],[100,0.8],[1000,1.5]]' },
    },
    magneticBoundaries: [{ ...newMagneticsRows.boundary(), faces: '12, 13' }],
    forceBodies: [3, 2],
    useTorqueAxis: true,
    torqueAxisOrigin: ['0', '0', '0.01'],
    torqueAxisDirection: ['0', '0', '1'],
    airPadding: '2.5',
  };
}

describe('the magnetics form (EM family: magnetostatic)', () => {
  it('sends coils, terminals, magnets, curves, boundaries, forces and air as the contract names them', () => {
    const config = toBackendConfig(magnetostaticForm(), { bodies });
    expect(AnalysisConfig.safeParse(config).success).toBe(true);
    expect(config).toMatchObject({
      analysisType: 'magnetostatic',
      mode: 'magnetostatic',
      coils: [
        { name: 'primary', region: 1, turns: 50, current: 2, axis: [0, 0, 1] },
        { name: 'bar', region: 3, turns: 1, current: -40, terminals: { in: [4, 5], out: [9] } },
        { name: 'toroid', region: 1, turns: 200, current: 0.5, wraps: 0 },
      ],
      magneticBoundaries: [{ faces: [12, 13], type: 'flux-normal' }],
      forceBodies: [2, 3],
      torqueAxis: { origin: [0, 0, 0.01], direction: [0, 0, 1] },
      airPadding: 2.5,
      solidConductors: [],
      // the electric switches stay off
      useWavePorts: false,
      frequency: 0,
    });
    expect(config.bodyMaterials).toEqual([
      { region: 0, name: 'core', bhCurve: 'm19-steel' },
      { region: 2, name: 'magnet', relativePermeability: 1.05, remanence: [0, 1.3, 0] },
      {
        region: 3,
        name: 'return bar',
        bhCurve: [
          [0, 0],
          [100, 0.8],
          [1000, 1.5],
        ],
      },
    ]);
    // one routing per coil: a closed coil's axis is not sent with wraps, nor terminals with a ring
    expect(config.coils?.[2]).not.toHaveProperty('axis');
    expect(config.coils?.[0]).not.toHaveProperty('terminals');
  });

  it('reads a saved magnetostatic config back into the same form (round trip)', () => {
    const form = magnetostaticForm();
    const config = toBackendConfig(form, { bodies });
    const { form: back, reset } = fromBackendConfig(JSON.parse(JSON.stringify(config)));
    expect(reset).toEqual([]);
    expect(back.physics).toBe('em');
    expect(back.analysisType).toBe('magnetostatic');
    expect(toBackendConfig(back, { bodies })).toEqual(config);
    // the open coil's terminal rows belong to the restored coil
    const bar = back.coils.find((c) => c.name === 'bar');
    expect(back.coilTerminals.map((t) => [t.coilKey === bar?.key, t.side, t.faces])).toEqual([
      [true, 'in', '4, 5'],
      [true, 'out', '9'],
    ]);
    const pick = (f: AnalysisForm) =>
      withoutKeys({
        coils: f.coils,
        magneticBodies: { ...f.magneticBodies, 3: { ...f.magneticBodies[3], table: '' } },
        magneticBoundaries: f.magneticBoundaries,
        forceBodies: [...f.forceBodies].sort(),
        airPadding: f.airPadding,
      });
    expect(pick(back)).toEqual(pick(form));
  });

  it('names an unreadable saved entry and keeps the rest', () => {
    const config = toBackendConfig(magnetostaticForm(), { bodies });
    const broken = JSON.parse(JSON.stringify(config));
    broken.coils[1].turns = 'many';
    broken.bodyMaterials[0].bhCurve = 'unobtainium-curve';
    const { form, reset } = fromBackendConfig(broken);
    expect(reset).toEqual(['coils[2]', 'bodyMaterials[1]']);
    expect(form.coils.map((c) => c.name)).toEqual(['primary', 'toroid']);
    expect(form.coilTerminals).toEqual([]);
  });

  it("marks an open coil's terminals and the flux boundaries on the model, named after their coil", () => {
    const form = magnetostaticForm();
    const marks = faceMarks(form, null, false);
    expect(marks.map((m) => [m.faces, m.tone])).toEqual([
      [[4, 5], 'load'],
      [[9], 'load'],
      [[12, 13], 'constraint'],
    ]);
    // the electric lists are not marked while a magnetic analysis is chosen
    const withTerminal = {
      ...form,
      dirichletFaceGroups: [{ key: 'x', name: 'T', faces: '30', voltage: '1' }],
    };
    expect(faceMarks(withTerminal, null, false).flatMap((m) => m.faces)).not.toContain(30);
  });
});

describe('the magnetics form (EM family: eddy currents)', () => {
  it('sends the frequency, coil phases, solid conductors and conductivities, and reads them back', () => {
    const f = defaultAnalysisForm();
    const coil = {
      ...newMagneticsRows.coil(0, '1'),
      name: 'inductor',
      turns: '8',
      current: '100',
      phase: '30',
    };
    const form: AnalysisForm = {
      ...f,
      analysisType: 'eddy-current',
      eddyFrequencyHz: '5000',
      coils: [coil],
      solidConductors: [
        { ...newMagneticsRows.solidConductor(0, '3'), name: 'bar', current: '250', phase: '-90' },
      ],
      magneticBodies: {
        0: { ...defaultMagneticBody('linear'), relativePermeability: '100', conductivity: '5e6' },
        3: { ...defaultMagneticBody('linear'), relativePermeability: '1', conductivity: '5.8e7' },
      },
    };
    const config = toBackendConfig(form, { bodies });
    expect(AnalysisConfig.safeParse(config).success).toBe(true);
    expect(config).toMatchObject({
      analysisType: 'eddy-current',
      mode: 'eddy-current',
      frequency: 5000,
      coils: [{ name: 'inductor', region: 1, turns: 8, current: 100, phase: 30 }],
      solidConductors: [{ name: 'bar', region: 3, current: 250, phase: -90 }],
    });
    expect(config.bodyMaterials).toEqual([
      { region: 0, name: 'core', relativePermeability: 100, conductivity: 5e6 },
      { region: 3, name: 'return bar', relativePermeability: 1, conductivity: 5.8e7 },
    ]);
    const { form: back, reset } = fromBackendConfig(JSON.parse(JSON.stringify(config)));
    expect(reset).toEqual([]);
    expect([back.analysisType, back.eddyFrequencyHz]).toEqual(['eddy-current', '5000']);
    expect(toBackendConfig(back, { bodies })).toEqual(config);
    // a magnetostatic run sends no phases (DC sources) and no conductivities but a solid conductor's, which
    // carries its DC current spread by conduction and reports its resistance (docs/magnetics.md §3)
    const statics = toBackendConfig({ ...form, analysisType: 'magnetostatic' }, { bodies });
    expect([statics.coils?.[0]?.phase, statics.solidConductors, statics.bodyMaterials?.[0]]).toEqual([
      0,
      [{ name: 'bar', region: 3, current: 250, phase: 0 }],
      { region: 0, name: 'core', relativePermeability: 100 },
    ]);
    expect(statics.bodyMaterials?.find((m) => m.region === 3)?.conductivity).toBe(5.8e7);
    expect(statics.bodyMaterials?.some((m) => m.region !== 3 && m.conductivity !== undefined)).toBe(false);
  });
});

describe("a solid conductor's terminals", () => {
  function busBarForm(): AnalysisForm {
    const bar = {
      ...newMagneticsRows.solidConductor(0, '3'),
      name: 'bar',
      current: '250',
      terminals: 'picked' as const,
    };
    const found = { ...newMagneticsRows.solidConductor(1, '0'), name: 'plate', current: '10' };
    return {
      ...defaultAnalysisForm(),
      analysisType: 'eddy-current',
      eddyFrequencyHz: '50',
      solidConductors: [bar, found],
      conductorTerminals: [
        { ...newMagneticsRows.conductorTerminal(bar.key, 'in'), faces: '3, 4' },
        { ...newMagneticsRows.conductorTerminal(bar.key, 'out'), faces: '11' },
      ],
    };
  }

  it('sends the picked faces as terminals and leaves a found one to the engine', () => {
    const config = toBackendConfig(busBarForm(), { bodies });
    expect(AnalysisConfig.safeParse(config).success).toBe(true);
    expect(config.solidConductors).toEqual([
      { name: 'bar', region: 3, current: 250, phase: 0, terminals: { in: [3, 4], out: [11] } },
      { name: 'plate', region: 0, current: 10, phase: 0 },
    ]);
    // one end not picked yet: no terminals (the engine then looks for the two patches itself)
    const half = busBarForm();
    half.conductorTerminals = half.conductorTerminals.map((t) =>
      t.side === 'out' ? { ...t, faces: '' } : t,
    );
    expect(toBackendConfig(half, { bodies }).solidConductors?.[0]).not.toHaveProperty('terminals');
  });

  it('reads the terminals back onto their conductor and marks them on the model', () => {
    const config = toBackendConfig(busBarForm(), { bodies });
    const { form: back, reset } = fromBackendConfig(JSON.parse(JSON.stringify(config)));
    expect(reset).toEqual([]);
    expect(toBackendConfig(back, { bodies })).toEqual(config);
    const [bar, plate] = back.solidConductors;
    expect([bar?.terminals, plate?.terminals]).toEqual(['picked', 'auto']);
    expect(back.conductorTerminals.map((t) => [t.conductorKey === bar?.key, t.side, t.faces])).toEqual([
      [true, 'in', '3, 4'],
      [true, 'out', '11'],
    ]);
    const marks = faceMarks(back, null, false);
    expect(marks.map((m) => [m.faces, m.tone])).toEqual([
      [[3, 4], 'load'],
      [[11], 'load'],
    ]);
  });
});

describe('a pasted B–H table', () => {
  it('reads JSON or "H, B" lines (a header skipped) as the contract does', () => {
    expect(readBhTable('[[0, 0], [100, 0.8]]')).toEqual({
      points: [
        [0, 0],
        [100, 0.8],
      ],
    });
    expect(readBhTable('H (A/m)\tB (T)\n0\t0\n100\t0.8\n1000, 1.5')).toEqual({
      points: [
        [0, 0],
        [100, 0.8],
        [1000, 1.5],
      ],
    });
  });

  it('refuses a curve that is not monotone, naming the offending point', () => {
    const read = readBhTable('[[0,0],[100,0.8],[90,1.0]]');
    expect(read).toEqual({
      error: 'point 2 [90, 1]: the curve must be monotone — H and B must both rise from point 1 [100, 0.8]',
    });
    expect(readBhTable('0 0\n100 x')).toEqual({
      error: 'line 2 “100 x”: two numbers expected, H (A/m) and B (T)',
    });
    expect(readBhTable('[[0,0]')).toEqual({ error: 'not a JSON table: write [[H, B], [H, B], …]' });
  });

  it('leaves a refused table out of the config rather than sending it', () => {
    const form = magnetostaticForm();
    form.magneticBodies[3] = {
      ...defaultMagneticBody('iron'),
      curve: 'table',
      table: '[[0,0],[100,0.8],[90,1.0]]',
    };
    const config = toBackendConfig(form, { bodies });
    expect(config.bodyMaterials?.find((b) => b.region === 3)).toEqual({ region: 3, name: 'return bar' });
  });
});
