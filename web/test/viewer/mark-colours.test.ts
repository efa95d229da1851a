import { FACE_MARK_PALETTES, type FaceMarkTone, faceMarkColour } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import { BODY_COLORS } from '../../src/viewer/scene/model-meshes.ts';

/**
 * The face marks' colours (contracts FACE_MARK_PALETTES): each member of a role distinguishable from the
 * others (qa32: port 1 and port 2 were one orange), every colour visible on the model's grey-blue and its
 * swatch visible on the form's dark panel.
 */

type Rgb = [number, number, number];
const rgb = (hex: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const linear = (byte: number) => {
  const c = byte / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const luminance = (c: Rgb) => {
  const [r, g, b] = c.map(linear) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
/** WCAG contrast ratio. */
const contrast = (a: Rgb, b: Rgb) => {
  const [lo, hi] = [luminance(a), luminance(b)].sort((x, y) => x - y) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};
/** CIELAB (D65) and the CIE76 colour difference ΔE. */
const lab = (c: Rgb): Rgb => {
  const [r, g, b] = c.map(linear) as Rgb;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
  const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
  const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
};
const deltaE = (a: Rgb, b: Rgb) => Math.hypot(...lab(a).map((v, k) => v - lab(b)[k]!));
/** A mark drawn at the marks layer's 75 % opacity over `under`. */
const over = (mark: Rgb, under: Rgb): Rgb => mark.map((v, k) => 0.75 * v + 0.25 * under[k]!) as Rgb;

const body = rgb(`#${BODY_COLORS[0]!.toString(16).padStart(6, '0')}`);
// the surface shader's darkest (ambient 0.42, a face turned away from the light) and lit shades
const shaded = body.map((v) => 0.42 * v) as Rgb;
const panels = [rgb('#0f141a'), rgb('#1c2128')]; // a row card and the panel behind the swatches
const TONES: FaceMarkTone[] = ['constraint', 'load', 'other', 'active'];

describe('face-mark colours', () => {
  it('each role has four members, and a fifth takes the first colour again', () => {
    for (const tone of ['constraint', 'load', 'other'] as const) {
      expect(FACE_MARK_PALETTES[tone]).toHaveLength(4);
      expect(faceMarkColour(tone, 4)).toEqual(faceMarkColour(tone, 0));
    }
    expect(faceMarkColour('load')).toEqual({ hex: '#ff6a2b', name: 'orange' });
  });

  it('members of a role are told apart (ΔE ≥ 25), and none is the amber of the row being picked', () => {
    const amber = rgb(faceMarkColour('active').hex);
    for (const tone of ['constraint', 'load', 'other'] as const) {
      const colours = FACE_MARK_PALETTES[tone].map((c) => rgb(c.hex));
      for (let i = 0; i < colours.length; i++) {
        expect(deltaE(colours[i]!, amber), `${tone} ${i} vs amber`).toBeGreaterThanOrEqual(25);
        for (let j = i + 1; j < colours.length; j++)
          expect(deltaE(colours[i]!, colours[j]!), `${tone} ${i} vs ${j}`).toBeGreaterThanOrEqual(25);
      }
      expect(new Set(FACE_MARK_PALETTES[tone].map((c) => c.name)).size).toBe(colours.length);
    }
  });

  it('every mark stands out on the model, lit or in shade (ΔE ≥ 30), and its swatch on the panel (≥ 3:1)', () => {
    for (const tone of TONES)
      for (const { hex } of FACE_MARK_PALETTES[tone]) {
        const c = rgb(hex);
        expect(deltaE(over(c, body), body), `${hex} on the lit model`).toBeGreaterThanOrEqual(30);
        expect(deltaE(over(c, shaded), shaded), `${hex} on the model in shade`).toBeGreaterThanOrEqual(30);
        for (const panel of panels) expect(contrast(c, panel), `${hex} swatch`).toBeGreaterThanOrEqual(3);
      }
  });
});
