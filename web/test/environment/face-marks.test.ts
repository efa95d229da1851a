import { describe, expect, it } from 'vitest';
import { defaultAnalysisForm, newRows } from '../../src/environment/config/analysis-form.ts';
import { newStructuralRows } from '../../src/environment/config/structural/structural-form.ts';
import { newThermalRows } from '../../src/environment/config/thermal/thermal-form.ts';
import { faceMarks, markToneOf } from '../../src/environment/viewer-bridge/face-marks.ts';

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
      { faces: [1, 2], tone: 'constraint' },
      { faces: [7], tone: 'load' },
    ]);
  });

  it('the row being picked is amber; with results shown only that row is marked', () => {
    const { form, load } = structural();
    const target = { list: 'structuralLoads' as const, key: load.key };
    expect(faceMarks(form, target, false)).toEqual([
      { faces: [1, 2], tone: 'constraint' },
      { faces: [7], tone: 'active' },
    ]);
    expect(faceMarks(form, target, true)).toEqual([{ faces: [7], tone: 'active' }]);
    expect(faceMarks(form, null, true)).toEqual([]);
  });

  it('only the chosen physics’ rows: a modal run has no loads, EM rows are not thermal ones', () => {
    const { form } = structural();
    expect(faceMarks({ ...form, physics: 'vibration', vibrationKind: 'modal' }, null, false)).toEqual([
      { faces: [1, 2], tone: 'constraint' },
    ]);
    expect(faceMarks({ ...form, physics: 'vibration', vibrationKind: 'harmonic' }, null, false)).toHaveLength(
      2,
    );
    const terminals = [{ ...newRows.dirichletFaceGroup(0), faces: '3' }];
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
      { faces: [4], tone: 'constraint' },
      { faces: [5], tone: 'load' },
      { faces: [6], tone: 'other' },
    ]);
    expect(faceMarks({ ...thermal, jouleHeating: true }, null, false)).toContainEqual({
      faces: [3],
      tone: 'other',
    });
    expect(faceMarks({ ...thermal, physics: 'em' }, null, false)).toEqual([
      { faces: [3], tone: 'constraint' },
    ]);
  });

  it('each face list shows the colour its faces are marked in (the key to the marks)', () => {
    const { form, support, load } = structural();
    expect(markToneOf(form, { list: 'structuralSupports', key: support.key })).toBe('constraint');
    expect(markToneOf(form, { list: 'structuralLoads', key: load.key })).toBe('load');
    // a modal run sends no loads: their rows are not marked
    expect(
      markToneOf(
        { ...form, physics: 'vibration', vibrationKind: 'modal' },
        { list: 'structuralLoads', key: load.key },
      ),
    ).toBeNull();
    expect(markToneOf(form, { list: 'structuralLoads', key: 'gone' })).toBeNull();
  });
});
