import {
  FIELD_COMPONENTS,
  type FieldSelection,
  SPEC_FIELD_MODES,
  type ViewerAnimation,
  type ViewerField,
  type ViewerFields,
} from '@fieldline/contracts';
import { peakPhaseVectors } from '../results-format/peak-phase.ts';
import { type ColorRange, dataRange, safeRange } from './color/color-scale.ts';

/**
 * The named fields of a result across animation frames (docs/multiphysics.md §1–2), and what a selection
 * shows at a frame: the values that colour the surface, and the vectors that draw arrows. Knows kinds
 * (scalar, vector, tensor), locations (vertex, cell) and phasors — never which physics a name belongs to.
 */

/** Surface field modes (spec 001 §9), the spec's alias of setField (SPEC_FIELD_MODES). */
export const FIELD_MODES = SPEC_FIELD_MODES.map((m) => m.label);
export type FieldMode = 0 | 1 | 2 | 3;

export interface FieldView {
  /** the field's name; '' when the result has no fields */
  name: string;
  /** what the legend and probe call the coloured quantity, e.g. "|Electric field|" or "Stress xx" */
  label: string;
  units: string;
  showVectors: boolean;
  /** per-vertex values shown as colour; null when the results lack this field */
  magnitude: Float32Array | null;
  /** per-vertex xyz of a vector field (for arrows and streamlines), else null */
  vectors: Float32Array | null;
}

const TENSOR_COMPONENTS = ['xx', 'yy', 'zz', 'xy', 'yz', 'xz'];
const VECTOR_COMPONENTS = ['x', 'y', 'z'];

/** The selection the viewer starts with: the catalogue's first field (the result orders its fields; an EM
 * result leads with the electric field, the spec's mode 0), vectors with arrows. */
export function defaultSelection(fields: ViewerFields | undefined): FieldSelection | null {
  const name = Object.keys(fields ?? {})[0];
  if (!name) return null;
  const field = fields?.[name];
  // A deformation is seen as the warped shape: colour by its magnitude, no arrows on top.
  return { name, display: field?.kind === 'vector' && field.role !== 'deformation' ? 'arrows' : 'magnitude' };
}

/** The spec's mode n as a selection (setFieldMode). */
export function selectionForMode(mode: FieldMode): FieldSelection {
  const m = SPEC_FIELD_MODES[mode] ?? SPEC_FIELD_MODES[0];
  return { name: m.name, display: m.display };
}

export class FieldState {
  private readonly derived = new WeakMap<Float32Array, Map<string, Float32Array>>();
  private readonly rangeCache = new Map<string, { min: number; max: number; minPositive: number }>();
  readonly names: string[];

  /**
   * `nv` and `tetrahedra` let cell fields (one value per tetrahedron) colour vertices: each vertex shows
   * the mean of the tetrahedra around it.
   */
  constructor(
    private readonly base: ViewerFields | undefined,
    readonly animation: ViewerAnimation | undefined,
    private readonly nv = 0,
    private readonly tetrahedra?: Uint32Array,
  ) {
    this.names = Object.keys(base ?? {});
  }

  get frameCount(): number {
    return this.animation?.frames.length ?? 0;
  }

  get hasFields(): boolean {
    return this.names.length > 0;
  }

  field(name: string): ViewerField | undefined {
    return this.base?.[name];
  }

  /** The field whose role is `deformation`, if any. */
  get deformationField(): string | null {
    return (
      this.names.find((n) => this.base?.[n]?.role === 'deformation' && this.base[n]?.kind === 'vector') ??
      null
    );
  }

  /** A field's values at a frame: the frame's own (full, or magnitudes only) or the static result's. */
  private valuesAt(
    name: string,
    frame: number,
  ): { values: Float32Array; imag?: Float32Array; magnitudeOnly: boolean } | null {
    const field = this.base?.[name];
    if (!field) return null;
    const frames = this.animation?.frames;
    if (frames && frames.length > 0) {
      const own = frames[Math.min(Math.max(0, frame), frames.length - 1)]?.[name];
      if (own) return { values: own, magnitudeOnly: own.length !== field.values.length };
    }
    return { values: field.values, ...(field.imag ? { imag: field.imag } : {}), magnitudeOnly: false };
  }

  /** Per-vertex values of a field, derived once per array (magnitude, component, cell → vertex). */
  private derive(key: string, source: Float32Array, make: () => Float32Array): Float32Array {
    let byKey = this.derived.get(source);
    if (!byKey) {
      byKey = new Map();
      this.derived.set(source, byKey);
    }
    let out = byKey.get(key);
    if (!out) {
      out = make();
      byKey.set(key, out);
    }
    return out;
  }

  private colourValues(
    sel: FieldSelection,
    frame: number,
  ): { values: Float32Array | null; vectors: Float32Array | null; label: string } {
    const field = this.base?.[sel.name];
    const at = this.valuesAt(sel.name, frame);
    if (!field || !at) return { values: null, vectors: null, label: sel.name };
    const width = at.magnitudeOnly ? 1 : FIELD_COMPONENTS[field.kind];
    const { values, imag } = at;
    const names = field.kind === 'tensor' ? TENSOR_COMPONENTS : VECTOR_COMPONENTS;
    let perEntry: Float32Array;
    let label = field.label;
    if (width === 1) {
      perEntry = values;
      if (field.kind !== 'scalar') label = `|${field.label}|`;
    } else if (sel.display === 'component' && sel.component !== undefined && sel.component < width) {
      const c = sel.component;
      perEntry = this.derive(`c${c}`, values, () => component(values, width, c));
      label = `${field.label} ${names[c] ?? c}`;
    } else {
      // Magnitude: the peak amplitude √(Σ|F_i|²) of a phasor, the Euclidean (Frobenius) norm otherwise.
      perEntry = this.derive(`m${imag ? 'c' : ''}`, values, () => magnitude(values, width, imag));
      label = `|${field.label}|`;
    }
    const perVertex =
      field.location === 'cell' ? this.derive('cell', perEntry, () => this.cellToVertex(perEntry)) : perEntry;
    const vectors = field.kind === 'vector' && width === 3 && field.location === 'vertex' ? values : null;
    return { values: perVertex, vectors, label };
  }

  private cellToVertex(cells: Float32Array): Float32Array {
    const out = new Float32Array(this.nv);
    const tets = this.tetrahedra;
    if (!tets) return out;
    const counts = new Uint32Array(this.nv);
    for (let t = 0; t < tets.length / 4; t++) {
      for (let k = 0; k < 4; k++) {
        const v = tets[4 * t + k]!;
        out[v]! += cells[t] ?? 0;
        counts[v]!++;
      }
    }
    for (let v = 0; v < this.nv; v++) if (counts[v]) out[v]! /= counts[v]!;
    return out;
  }

  view(sel: FieldSelection | null, frame: number): FieldView {
    const field = sel ? this.base?.[sel.name] : undefined;
    if (!sel || !field) {
      return {
        name: sel?.name ?? '',
        label: sel?.name ?? '',
        units: '',
        showVectors: false,
        magnitude: null,
        vectors: null,
      };
    }
    const { values, vectors, label } = this.colourValues(sel, frame);
    return {
      name: sel.name,
      label,
      units: field.unit,
      showVectors: sel.display === 'arrows' && !!vectors,
      magnitude: values,
      vectors,
    };
  }

  /** Per-vertex xyz of a vector field at a frame (deformation, streamlines), or null. */
  vectorsAt(name: string, frame: number): Float32Array | null {
    const field = this.base?.[name];
    const at = this.valuesAt(name, frame);
    if (!field || !at || field.kind !== 'vector' || at.magnitudeOnly || field.location !== 'vertex')
      return null;
    return at.values;
  }

  /**
   * Per-vertex xyz to warp the model by (the deformed shape): a phasor field at its peak phase
   * (peakPhaseVectors), any other vector field as it is.
   */
  deformationAt(name: string, frame: number): Float32Array | null {
    const vectors = this.vectorsAt(name, frame);
    const imag = this.valuesAt(name, frame)?.imag;
    if (!vectors || !imag) return vectors;
    return this.derive('peak-phase', vectors, () => peakPhaseVectors(vectors, imag));
  }

  /** The auto range of a selection: over every frame, so colours compare across the animation. */
  autoRange(sel: FieldSelection | null, log: boolean): ColorRange {
    if (!sel) return safeRange(0, 1, log);
    const key = `${sel.name}|${sel.display}|${sel.component ?? ''}`;
    let stats = this.rangeCache.get(key);
    if (!stats) {
      const count = Math.max(1, this.frameCount);
      const arrays: Float32Array[] = [];
      for (let f = 0; f < count; f++) {
        const v = this.colourValues(sel, f).values;
        if (v) arrays.push(v);
      }
      stats = dataRange(arrays);
      this.rangeCache.set(key, stats);
    }
    return safeRange(log ? stats.minPositive : stats.min, stats.max, log);
  }
}

function component(values: Float32Array, width: number, c: number): Float32Array {
  const n = values.length / width;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = values[i * width + c]!;
  return out;
}

function magnitude(values: Float32Array, width: number, imag?: Float32Array): Float32Array {
  const n = values.length / width;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let c = 0; c < width; c++) {
      const re = values[i * width + c]!;
      const im = imag ? imag[i * width + c]! : 0;
      // Off-diagonal tensor entries count twice in the Frobenius norm of a symmetric tensor.
      const weight = width === 6 && c >= 3 ? 2 : 1;
      sum += weight * (re * re + im * im);
    }
    out[i] = Math.sqrt(sum);
  }
  return out;
}
