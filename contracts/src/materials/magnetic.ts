import { z } from 'zod';

/**
 * Magnetic material data (docs/magnetics.md §2): B–H curves of soft iron and the remanence of magnets.
 * A curve is a table of [H (A/m), B (T)] points from the origin up; both columns must rise strictly, and
 * beyond its last point the engine extends it with slope μ0 (the material is saturated).
 */

/** One B–H table. Refused with the first offending point (its 0-based index and values). */
export const BhTable = z
  .array(z.tuple([z.number().finite(), z.number().finite()]))
  .min(2, 'a B–H curve needs at least two points')
  .superRefine((points, ctx) => {
    points.forEach(([h, b], k) => {
      if (h < 0 || b < 0) {
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: `point ${k} [${h}, ${b}]: H and B must not be negative (the curve starts at the origin)`,
        });
        return;
      }
      const prev = points[k - 1];
      if (prev && !(h > prev[0] && b > prev[1]))
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: `point ${k} [${h}, ${b}]: the curve must be monotone — H and B must both rise from point ${k - 1} [${prev[0]}, ${prev[1]}]`,
        });
    });
  });
export type BhTable = z.infer<typeof BhTable>;

/** A body's B–H curve: a library curve by name (BH_CURVES) or a table. */
export const BhCurve = z.union([z.string().min(1), BhTable]);

export interface LibraryBhCurve {
  label: string;
  /** where the points come from */
  source: string;
  points: [number, number][];
}

/**
 * Library B–H curves. M-19: the DC magnetization curve of M-19 (29 gauge) non-oriented silicon steel,
 * AK Steel "Selection of Electrical Steels for Magnetic Cores" product data bulletin (H at 0.5, 1, 2, 4,
 * 10, 20, 42.4, 100, 200, 400, 692 and 1000 Oe), as tabulated in FEMM 4.2's material library ("M-19
 * Steel").
 */
export const BH_CURVES: Readonly<Record<string, LibraryBhCurve>> = {
  'm19-steel': {
    label: 'M-19 silicon steel (29 Ga), DC magnetization',
    source:
      'AK Steel, Selection of Electrical Steels for Magnetic Cores (M-19, 29 Ga); FEMM 4.2 library "M-19 Steel"',
    points: [
      [0, 0],
      [39.78875, 0.3],
      [79.5775, 0.8],
      [159.155, 1.12],
      [318.31, 1.32],
      [795.775, 1.46],
      [1591.55, 1.54],
      [3376.667, 1.61875],
      [7957.75, 1.74],
      [15915.5, 1.87],
      [31831, 1.99],
      [55102.04, 2.045964],
      [79577.5, 2.08],
    ],
  },
};

export function bhCurveByName(name: string): LibraryBhCurve | undefined {
  return Object.hasOwn(BH_CURVES, name) ? BH_CURVES[name] : undefined;
}
