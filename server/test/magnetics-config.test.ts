import { AnalysisConfig, BH_CURVES, BhTable, MATERIALS } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import { MaterialLibrary } from '../src/materials/material-library.ts';

describe('magnetics config (docs/magnetics.md)', () => {
  it('refuses a B–H table that is not monotone, naming the offending point', () => {
    const bad = BhTable.safeParse([
      [0, 0],
      [100, 1.0],
      [200, 0.9],
    ]);
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe(
      'point 2 [200, 0.9]: the curve must be monotone — H and B must both rise from point 1 [100, 1]',
    );
    expect(
      BhTable.safeParse([
        [-1, 0],
        [10, 1],
      ]).error?.issues[0]?.message,
    ).toMatch(/^point 0 \[-1, 0\]/);
    for (const curve of Object.values(BH_CURVES)) expect(BhTable.safeParse(curve.points).success).toBe(true);
  });

  it('parses coils and refuses a coil routed two ways or a name used twice', () => {
    const coil = { name: 'A', region: 1, turns: 50, current: 2 };
    const ok = AnalysisConfig.parse({ analysisType: 'magnetostatic', coils: [coil] });
    expect(ok.coils[0]).toMatchObject({ ...coil, phase: 0 });
    expect(ok.magneticBoundaries).toEqual([]);
    const twice = AnalysisConfig.safeParse({ analysisType: 'magnetostatic', coils: [coil, coil] });
    expect(twice.error?.issues.map((i) => i.message)).toEqual(["coil name 'A' is used twice"]);
    const both = AnalysisConfig.safeParse({
      analysisType: 'magnetostatic',
      coils: [{ ...coil, wraps: 0, terminals: { in: [1], out: [2] } }],
    });
    expect(both.error?.issues[0]?.message).toMatch(/give terminals .* or wraps/);
    const bodyCurve = AnalysisConfig.safeParse({
      analysisType: 'magnetostatic',
      bodyMaterials: [
        {
          region: 0,
          bhCurve: [
            [0, 0],
            [10, 1],
            [5, 2],
          ],
        },
      ],
    });
    expect(bodyCurve.error?.issues[0]?.path).toEqual(['bodyMaterials', 0, 'bhCurve', 2]);
  });

  it('expands a library B–H curve name into its table, and refuses an unknown one', () => {
    const library = MaterialLibrary.load(null);
    const [steel, named] = library.expand([
      { region: 0, material: 'electrical-steel-m19' },
      { region: 1, bhCurve: 'm19-steel' },
    ]) as { bhCurve: number[][] }[];
    expect(steel?.bhCurve).toEqual(BH_CURVES['m19-steel']?.points);
    expect(named?.bhCurve).toEqual(BH_CURVES['m19-steel']?.points);
    expect(() => library.expand([{ region: 0, bhCurve: 'nope' }])).toThrow(/unknown B–H curve 'nope'/);
    const magnet = MATERIALS.find((m) => m.id === 'ndfeb-n42');
    expect(magnet).toMatchObject({ remanentFluxDensity: 1.3, relativePermeability: 1.05 });
  });
});
