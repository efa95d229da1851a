import { describe, expect, it } from 'vitest';
import { defaultAnalysisForm } from '../../src/environment/config/form-defaults.ts';
import { newEmRows } from '../../src/environment/families/em/em-form.ts';
import { newStructuralRows } from '../../src/environment/families/structural/structural-form.ts';
import { newThermalRows } from '../../src/environment/families/thermal/thermal-form.ts';
import type { PickTarget } from '../../src/environment/state/environment-state.ts';
import { faceMarks, markOf } from '../../src/environment/viewer-bridge/face-marks.ts';

/** qa31: picked supports and loads were never shown on the model. */
describe('faceMarks: what the viewer marks', () => {
  const structural = () => {
    const support = { ...newStructuralRows.support(0), faces: '1, 2' };
    const load = { ...newStructuralRows.load(0), faces: '7' };
    const empty = { ...newStructuralRows.load(1), faces: '' };
    return {
      form: {
        ...defaultAnalysisForm(),
        physics: 'structural' as const,
        structuralSupports: [support],
        structuralLoads: [load, empty],
      },
      support,
      load,
    };
  };

  it('marks supports as constraints and loads as loads; a row without faces is not sent', () => {
    const { form } = structural();
    expect(faceMarks(form, null, false)).toEqual([
      { faces: [1, 2], tone: 'constraint', member: 0 },
      { faces: [7], tone: 'load', member: 0 },
    ]);
  });

  it('the row being picked is amber; with results shown only that row is marked', () => {
    const { form, load } = structural();
    const target = { list: 'structuralLoads' as const, key: load.key };
    expect(faceMarks(form, target, false)).toEqual([
      { faces: [1, 2], tone: 'constraint', member: 0 },
      { faces: [7], tone: 'active' },
    ]);
    expect(faceMarks(form, target, true)).toEqual([{ faces: [7], tone: 'active' }]);
    expect(faceMarks(form, null, true)).toEqual([]);
  });

  it('only the chosen physics’ rows: a modal run has no loads, EM rows are not thermal ones', () => {
    const { form } = structural();
    expect(faceMarks({ ...form, physics: 'vibration', vibrationKind: 'modal' }, null, false)).toEqual([
      { faces: [1, 2], tone: 'constraint', member: 0 },
    ]);
    expect(faceMarks({ ...form, physics: 'vibration', vibrationKind: 'harmonic' }, null, false)).toHaveLength(
      2,
    );
    const terminals = [{ ...newEmRows.dirichletFaceGroup(0), faces: '3' }];
    const thermal = {
      ...form,
      physics: 'thermal' as const,
      dirichletFaceGroups: terminals,
      thermalConditions: [
        { ...newThermalRows.condition(0, 'temperature'), faces: '4' },
        { ...newThermalRows.condition(1, 'flux'), faces: '5' },
        { ...newThermalRows.condition(2, 'convection'), faces: '6' },
      ],
    };
    expect(faceMarks(thermal, null, false)).toEqual([
      { faces: [4], tone: 'constraint', member: 0 },
      { faces: [5], tone: 'load', member: 0 },
      { faces: [6], tone: 'other', member: 0 },
    ]);
    // the terminal is the second 'other' row after the convection
    expect(faceMarks({ ...thermal, jouleHeating: true }, null, false)).toContainEqual({
      faces: [3],
      tone: 'other',
      member: 1,
    });
    expect(faceMarks({ ...thermal, physics: 'em' }, null, false)).toEqual([
      { faces: [3], tone: 'constraint', member: 0 },
    ]);
  });

  it('each face list shows the colour its faces are marked in and names its row (the key to the marks)', () => {
    const { form, support, load } = structural();
    expect(markOf(form, { list: 'structuralSupports', key: support.key })).toEqual({
      tone: 'constraint',
      member: 0,
      name: 'Support 1',
      colour: { hex: '#3b8bff', name: 'blue' },
    });
    expect(markOf(form, { list: 'structuralLoads', key: load.key })).toMatchObject({
      tone: 'load',
      name: 'Load 1',
    });
    // a modal run sends no loads: their rows are not marked
    expect(
      markOf(
        { ...form, physics: 'vibration', vibrationKind: 'modal' },
        { list: 'structuralLoads', key: load.key },
      ),
    ).toBeNull();
    expect(markOf(form, { list: 'structuralLoads', key: 'gone' })).toBeNull();
  });

  it('two wave ports, or two terminals, are marked in two colours, each named (qa32)', () => {
    const ports = [0, 1].map((i) => ({ ...newEmRows.wavePort(i), faces: String(10 + i) }));
    const terminals = [0, 1].map((i) => ({ ...newEmRows.dirichletFaceGroup(i), faces: String(20 + i) }));
    const em = {
      ...defaultAnalysisForm(),
      physics: 'em' as const,
      useWavePorts: true,
      wavePorts: ports,
      dirichletFaceGroups: terminals,
    };
    const marks = faceMarks(em, null, false);
    expect(marks).toEqual([
      { faces: [20], tone: 'constraint', member: 0 },
      { faces: [21], tone: 'constraint', member: 1 },
      { faces: [10], tone: 'load', member: 0 },
      { faces: [11], tone: 'load', member: 1 },
    ]);
    const legend = [
      ...ports.map((p) => ['wavePorts', p.key]),
      ...terminals.map((t) => ['dirichletFaceGroups', t.key]),
    ].map(([list, key]) => markOf(em, { list, key } as PickTarget));
    expect(legend.map((m) => `${m?.name}: ${m?.colour.name}`)).toEqual([
      'Port 1: orange',
      'Port 2: crimson',
      'Terminal 1: blue',
      'Terminal 2: violet',
    ]);
    // Joule heating: the same terminals, two colours of the 'other' family
    const joule = { ...em, physics: 'thermal' as const, jouleHeating: true };
    expect(
      terminals.map((t) => markOf(joule, { list: 'dirichletFaceGroups', key: t.key })?.colour.name),
    ).toEqual(['green', 'lime']);
    // a row keeps its colour while the one before it has no faces yet
    const blankFirst = { ...em, wavePorts: [{ ...ports[0]!, faces: '' }, ports[1]!] };
    expect(faceMarks(blankFirst, null, false)).toContainEqual({ faces: [11], tone: 'load', member: 1 });
  });
});
