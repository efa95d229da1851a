import { interpolateTurbo, interpolateViridis } from 'd3-scale-chromatic';

/** Perceptually uniform colour maps as 256-entry RGBA lookup tables (uploaded to the GPU as a texture). */
export const COLOR_MAPS = ['viridis', 'turbo', 'coolwarm'] as const;
export type ColorMapName = (typeof COLOR_MAPS)[number];

export const LUT_SIZE = 256;

function parseRgb(css: string): [number, number, number] {
  if (css.startsWith('#')) {
    const n = Number.parseInt(css.slice(1), 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }
  const m = css.match(/\d+(\.\d+)?/g);
  return [Number(m?.[0] ?? 0), Number(m?.[1] ?? 0), Number(m?.[2] ?? 0)];
}

/**
 * Moreland's diverging "cool to warm" map (blue #3b4cc0 → near-white → red #b40426), interpolated in his
 * Msh space so lightness rises to the middle and falls symmetrically.
 */
export function coolwarm(t: number): [number, number, number] {
  const cold = rgbToMsh([59, 76, 192]);
  const warm = rgbToMsh([180, 4, 38]);
  let [m1, s1, h1] = cold;
  let [m2, s2, h2] = warm;
  let u = Math.min(1, Math.max(0, t));
  if (s1 > 0.05 && s2 > 0.05 && angleDiff(h1, h2) > Math.PI / 3) {
    // Insert an unsaturated white in the middle.
    const mMid = Math.max(m1, m2, 88);
    if (u < 0.5) {
      [m2, s2, h2] = [mMid, 0, 0];
      u *= 2;
    } else {
      [m1, s1, h1] = [mMid, 0, 0];
      u = 2 * u - 1;
    }
  }
  if (s1 < 0.05 && s2 > 0.05) h1 = adjustHue([m2, s2, h2], m1);
  else if (s2 < 0.05 && s1 > 0.05) h2 = adjustHue([m1, s1, h1], m2);
  return mshToRgb([(1 - u) * m1 + u * m2, (1 - u) * s1 + u * s2, (1 - u) * h1 + u * h2]);
}

function angleDiff(a: number, b: number): number {
  const d = Math.abs(a - b) % (2 * Math.PI);
  return d > Math.PI ? 2 * Math.PI - d : d;
}

function adjustHue([m, s, h]: number[], mUnsat: number): number {
  if (m! >= mUnsat) return h!;
  const spin = (s! * Math.sqrt(mUnsat * mUnsat - m! * m!)) / (m! * Math.sin(s!));
  return h! > -Math.PI / 3 ? h! + spin : h! - spin;
}

// sRGB ↔ CIELAB (D65) ↔ Msh
const WHITE = [0.95047, 1.0, 1.08883];
function toLinear(c: number): number {
  const v = c / 255;
  return v > 0.04045 ? ((v + 0.055) / 1.055) ** 2.4 : v / 12.92;
}
function fromLinear(v: number): number {
  const c = v > 0.0031308 ? 1.055 * v ** (1 / 2.4) - 0.055 : 12.92 * v;
  return Math.round(Math.min(1, Math.max(0, c)) * 255);
}
function rgbToMsh(rgb: number[]): [number, number, number] {
  const [r, g, b] = rgb.map(toLinear) as [number, number, number];
  const xyz = [
    0.4124 * r + 0.3576 * g + 0.1805 * b,
    0.2126 * r + 0.7152 * g + 0.0722 * b,
    0.0193 * r + 0.1192 * g + 0.9505 * b,
  ];
  const f = (v: number) => (v > 0.008856 ? Math.cbrt(v) : 7.787 * v + 16 / 116);
  const [fx, fy, fz] = xyz.map((v, i) => f(v / WHITE[i]!)) as [number, number, number];
  const L = 116 * fy - 16;
  const a = 500 * (fx - fy);
  const bb = 200 * (fy - fz);
  const m = Math.sqrt(L * L + a * a + bb * bb);
  const s = m > 0 ? Math.acos(L / m) : 0;
  const h = m > 0 ? Math.atan2(bb, a) : 0;
  return [m, s, h];
}
function mshToRgb([m, s, h]: number[]): [number, number, number] {
  const L = m! * Math.cos(s!);
  const a = m! * Math.sin(s!) * Math.cos(h!);
  const b = m! * Math.sin(s!) * Math.sin(h!);
  const fy = (L + 16) / 116;
  const fx = fy + a / 500;
  const fz = fy - b / 200;
  const inv = (v: number) => (v ** 3 > 0.008856 ? v ** 3 : (v - 16 / 116) / 7.787);
  const [x, y, z] = [inv(fx) * WHITE[0]!, inv(fy) * WHITE[1]!, inv(fz) * WHITE[2]!];
  const r = 3.2406 * x - 1.5372 * y - 0.4986 * z;
  const g = -0.9689 * x + 1.8758 * y + 0.0415 * z;
  const bl = 0.0557 * x - 0.204 * y + 1.057 * z;
  return [fromLinear(r), fromLinear(g), fromLinear(bl)];
}

/** The colour (0–255 RGB) of a map at t ∈ [0, 1]. */
export function colorAt(map: ColorMapName, t: number): [number, number, number] {
  const u = Math.min(1, Math.max(0, t));
  if (map === 'coolwarm') return coolwarm(u);
  return parseRgb(map === 'turbo' ? interpolateTurbo(u) : interpolateViridis(u));
}

const cache = new Map<ColorMapName, Uint8Array>();

/** RGBA lookup table, LUT_SIZE entries; entry i is the colour at t = i / (LUT_SIZE − 1). */
export function colorMapLut(map: ColorMapName): Uint8Array {
  let lut = cache.get(map);
  if (!lut) {
    lut = new Uint8Array(LUT_SIZE * 4);
    for (let i = 0; i < LUT_SIZE; i++) {
      const [r, g, b] = colorAt(map, i / (LUT_SIZE - 1));
      lut.set([r, g, b, 255], 4 * i);
    }
    cache.set(map, lut);
  }
  return lut;
}
