import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ANALYSIS_TYPES, AnalysisConfigFields } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import { defaultCommonForm } from '../../src/environment/config/common/common-config.ts';
import { defaultAnalysisForm } from '../../src/environment/config/form-defaults.ts';
import { fromBackendConfig } from '../../src/environment/config/from-backend-config.ts';
import { toBackendConfig } from '../../src/environment/config/to-backend-config.ts';
import { families, familyById, familyOfAnalysisType } from '../../src/environment/families/registry.ts';

const FAMILIES_DIR = join(import.meta.dirname, '../../src/environment/families');

describe('the family registry (web/src/environment/families/registry.ts)', () => {
  it('finds every family folder with an index.ts, without a list (adding a family is adding its folder)', () => {
    const folders = readdirSync(FAMILIES_DIR, { withFileTypes: true })
      .filter((e) => e.isDirectory() && readdirSync(join(FAMILIES_DIR, e.name)).includes('index.ts'))
      .map((e) => e.name)
      .sort();
    expect(folders).toEqual(expect.arrayContaining(['em', 'structural', 'thermal', 'vibration']));
    expect(
      families()
        .map((f) => f.id)
        .sort(),
    ).toEqual(folders);
    // the chooser's order; the first is the form's default
    expect(families().map((f) => f.label)).toEqual([
      'Electromagnetic',
      'Thermal',
      'Vibration',
      'Structural',
      'Thermal stress',
    ]);
    expect(defaultAnalysisForm().physics).toBe('em');
  });

  it('gives an analysis type at most one family, and no two families the same form field', () => {
    const types = families().flatMap((f) => f.analysisTypes);
    expect(new Set(types).size, 'an analysis type claimed twice').toBe(types.length);
    // contract types a family folder has not taken up yet (the magnetics types, say) have none
    expect(ANALYSIS_TYPES, 'a family runs a type the contract does not know').toEqual(
      expect.arrayContaining(types),
    );
    expect(types).not.toContain('tetra-only');
    const seen = new Map<string, string>(Object.keys(defaultCommonForm()).map((k) => [k, 'common']));
    for (const family of families()) {
      for (const key of Object.keys(family.defaults())) {
        expect(seen.get(key), `${family.id}.${key}`).toBeUndefined();
        seen.set(key, family.id);
      }
    }
  });

  it("maps each family's default form to a valid config of its own analysis type, and reads it back to the family", () => {
    for (const family of families()) {
      const form = { ...defaultAnalysisForm(), physics: family.id } as ReturnType<typeof defaultAnalysisForm>;
      const config = toBackendConfig(form, { bodies: [{ region: 0, name: 'part' }] });
      expect(family.analysisTypes, family.id).toContain(config.analysisType);
      expect(familyOfAnalysisType(config.analysisType)?.id).toBe(family.id);
      // every field valid (a default form may still lack what a run needs: the submit checks say so)
      expect(AnalysisConfigFields.safeParse(config).success, family.id).toBe(true);
      const { form: back, reset } = fromBackendConfig(JSON.parse(JSON.stringify(config)));
      expect([back.physics, reset], family.id).toEqual([family.id, []]);
      expect(toBackendConfig(back, { bodies: [{ region: 0, name: 'part' }] }), family.id).toEqual(config);
    }
  });

  it('falls back to the default family for an id no folder has (a stale saved form)', () => {
    expect(familyById('acoustics').id).toBe('em');
    expect(familyOfAnalysisType('tetra-only')).toBeUndefined();
  });
});
