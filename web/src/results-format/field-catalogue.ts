import {
  EM_FIELDS,
  EM_SPEC_KEYS,
  FIELD_COMPONENTS,
  FIELD_KINDS,
  type FieldKind,
  type ViewerField,
  type ViewerFields,
} from '@fieldline/contracts';

/**
 * The named-field catalogue of a results file (docs/multiphysics.md §1) as the viewer's fields, and the
 * adapter for files written before it: those carry only the spec's EM keys (efields, field_magnitudes, …).
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON array of numbers or of rows (n×c) as a Float32Array of n·c values; undefined when malformed. */
export function flatNumbers(
  value: unknown,
  entries: number,
  width: number,
): Float32Array<ArrayBuffer> | undefined {
  if (!Array.isArray(value) || value.length !== entries) return undefined;
  const out = new Float32Array(entries * width);
  for (let i = 0; i < entries; i++) {
    const row = value[i];
    if (width === 1) out[i] = Number(Array.isArray(row) ? row[0] : row) || 0;
    else if (Array.isArray(row)) for (let c = 0; c < width; c++) out[i * width + c] = Number(row[c]) || 0;
    else return undefined;
  }
  return out;
}

/** `fields` of a results file: every well-formed entry, in file order; malformed ones are skipped. */
export function catalogueFromJson(value: unknown, nv: number, nt: number): ViewerFields {
  const out: ViewerFields = {};
  if (!isObject(value)) return out;
  for (const [name, entry] of Object.entries(value)) {
    if (!isObject(entry)) continue;
    const kind = (FIELD_KINDS as readonly string[]).includes(String(entry.kind))
      ? (entry.kind as FieldKind)
      : null;
    if (!kind) continue;
    const location = entry.location === 'cell' ? 'cell' : 'vertex';
    const count = location === 'cell' ? nt : nv;
    const values = flatNumbers(entry.data, count, FIELD_COMPONENTS[kind]);
    if (!values) continue;
    const imag =
      entry.imag !== undefined ? flatNumbers(entry.imag, count, FIELD_COMPONENTS[kind]) : undefined;
    out[name] = {
      label: typeof entry.label === 'string' ? entry.label : name,
      unit: typeof entry.unit === 'string' ? entry.unit : '',
      kind,
      location,
      ...(typeof entry.role === 'string' ? { role: entry.role } : {}),
      values,
      ...(imag ? { imag } : {}),
    };
  }
  return out;
}

function emField(name: keyof typeof EM_FIELDS, values: Float32Array, imag?: Float32Array): ViewerField {
  const { label, unit, kind } = EM_FIELDS[name];
  return { label, unit, kind, location: 'vertex', values, ...(imag ? { imag } : {}) };
}

/**
 * The catalogue of an older EM results file (or results.bin v1, or one animation frame), from the spec's
 * keys. `read` returns a spec key's values: scalars (n) or vectors (3n).
 */
export function catalogueFromSpecKeys(
  read: (key: string, width: 1 | 3) => Float32Array | undefined,
): ViewerFields {
  const out: ViewerFields = {};
  for (const [name, keys] of Object.entries(EM_SPEC_KEYS) as [
    keyof typeof EM_SPEC_KEYS,
    (typeof EM_SPEC_KEYS)[keyof typeof EM_SPEC_KEYS],
  ][]) {
    const vectors = read(keys.vectors, 3);
    if (vectors) out[name] = emField(name, vectors, read(keys.imag, 3));
    else {
      // Only magnitudes: a scalar field with the vector field's name, label and unit.
      const magnitude = read(keys.magnitude, 1);
      if (magnitude) out[name] = { ...emField(name, magnitude), kind: 'scalar' };
    }
  }
  // After the vector fields: the spec's mode 0 (Electric Field) leads, as in the engine's catalogue.
  const potential = read('potential', 1);
  if (potential) out.potential = emField('potential', potential);
  return out;
}
