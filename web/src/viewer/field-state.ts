import type { ViewerAnimation, ViewerFields } from '@fieldline/contracts';
import { vectorMagnitudes } from '../results/viewer-payload.ts';
import { type ColorRange, dataRange, safeRange } from './color/color-scale.ts';

/** Surface field modes (spec 001 §9): vectors modes also colour the surface by the magnitude. */
export const FIELD_MODES = [
  'Electric Field',
  'Magnetic Field',
  'Electric Magnitude',
  'Magnetic Magnitude',
] as const;
export type FieldMode = 0 | 1 | 2 | 3;

export interface FieldView {
  /** which field: E or H */
  field: 'E' | 'H';
  label: string;
  units: string;
  showVectors: boolean;
  /** per-vertex magnitude shown as colour; null when the results lack this field */
  magnitude: Float32Array | null;
  vectors: Float32Array | null;
}

/** The fields of a result across animation frames, and what the current mode and frame show. */
export class FieldState {
  private readonly magnitudeCache = new WeakMap<Float32Array, Float32Array>();
  private readonly rangeCache = new Map<string, { min: number; max: number; minPositive: number }>();

  constructor(
    private readonly base: ViewerFields | undefined,
    readonly animation: ViewerAnimation | undefined,
  ) {}

  get frameCount(): number {
    return this.animation?.frames.length ?? 0;
  }

  get hasFields(): boolean {
    const has = (f: ViewerFields | undefined) =>
      !!f && !!(f.eMagnitude || f.hMagnitude || f.eVectors || f.hVectors);
    return has(this.base) || (this.animation?.frames.some(has) ?? false);
  }

  private fieldsAt(frame: number): ViewerFields | undefined {
    const frames = this.animation?.frames;
    if (frames && frames.length > 0) {
      const f = frames[Math.min(Math.max(0, frame), frames.length - 1)] ?? {};
      // A frame without a quantity falls back to the static result's; a frame with vectors but no
      // magnitude gets its magnitude from its own vectors, never the static one.
      const merged: ViewerFields = { ...this.base, ...f };
      if (f.eVectors && !f.eMagnitude) delete merged.eMagnitude;
      if (f.hVectors && !f.hMagnitude) delete merged.hMagnitude;
      return merged;
    }
    return this.base;
  }

  private magnitudeOf(f: ViewerFields | undefined, field: 'E' | 'H'): Float32Array | null {
    if (!f) return null;
    const mag = field === 'E' ? f.eMagnitude : f.hMagnitude;
    if (mag) return mag;
    const vec = field === 'E' ? f.eVectors : f.hVectors;
    if (!vec) return null;
    let cached = this.magnitudeCache.get(vec);
    if (!cached) {
      cached = vectorMagnitudes(vec);
      this.magnitudeCache.set(vec, cached);
    }
    return cached;
  }

  view(mode: FieldMode, frame: number): FieldView {
    const field = mode === 0 || mode === 2 ? 'E' : 'H';
    const f = this.fieldsAt(frame);
    return {
      field,
      label: field === 'E' ? '|E|' : '|H|',
      units: field === 'E' ? 'V/m' : 'A/m',
      showVectors: mode === 0 || mode === 1,
      magnitude: this.magnitudeOf(f, field),
      vectors: (field === 'E' ? f?.eVectors : f?.hVectors) ?? null,
    };
  }

  /** The auto range of a field: over every frame, so colours compare across the animation. */
  autoRange(field: 'E' | 'H', log: boolean): ColorRange {
    let stats = this.rangeCache.get(field);
    if (!stats) {
      const arrays: Float32Array[] = [];
      const frames = this.animation?.frames.length
        ? this.animation.frames.map((_, i) => this.fieldsAt(i))
        : [this.base];
      for (const f of frames) {
        const m = this.magnitudeOf(f, field);
        if (m) arrays.push(m);
      }
      stats = dataRange(arrays);
      this.rangeCache.set(field, stats);
    }
    return safeRange(log ? stats.minPositive : stats.min, stats.max, log);
  }
}
