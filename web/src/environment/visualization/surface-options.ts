import { SPEC_FIELD_MODES } from '@fieldline/contracts';
import { type FieldSummary, hasSpecFieldModes, prettyUnit } from '../../results-format/index.ts';

/** One entry of the surface-field selector: a spec mode (setFieldMode) or a named field (setField). */
export interface SurfaceOption {
  value: string;
  label: string;
  name: string;
  display: 'magnitude' | 'arrows';
  /** the spec's mode number (spec 001 §9) when this entry is one of its four modes */
  mode?: number;
}

const modeOption = (m: (typeof SPEC_FIELD_MODES)[number], i: number): SurfaceOption => ({
  value: `mode:${i}`,
  label: m.label,
  name: m.name,
  display: m.display,
  mode: i,
});

/**
 * The selector's entries for a result's catalogue: with EM fields (or before any result) the spec's four
 * modes first, in its order and names; then every other field by its label and unit. Vectors show arrows.
 */
export function surfaceOptions(fields: FieldSummary[] | null): SurfaceOption[] {
  const out: SurfaceOption[] = [];
  const spec = !fields || hasSpecFieldModes(fields);
  if (spec) out.push(...SPEC_FIELD_MODES.map(modeOption));
  for (const f of fields ?? []) {
    if (spec && SPEC_FIELD_MODES.some((m) => m.name === f.name)) continue;
    out.push({
      value: `field:${f.name}`,
      label: f.unit ? `${f.label} (${prettyUnit(f.unit)})` : f.label,
      name: f.name,
      display: f.kind === 'vector' && f.role !== 'deformation' ? 'arrows' : 'magnitude',
    });
  }
  return out;
}

const VECTOR = ['x', 'y', 'z'];
const TENSOR = ['xx', 'yy', 'zz', 'xy', 'yz', 'xz'];

/** "Magnitude" and the components of a vector or tensor field (none for scalars and the spec modes). */
export function componentOptions(
  option: SurfaceOption,
  fields: FieldSummary[],
): { value: number; label: string }[] {
  if (option.mode !== undefined) return [];
  const kind = fields.find((f) => f.name === option.name)?.kind;
  const names = kind === 'vector' ? VECTOR : kind === 'tensor' ? TENSOR : [];
  if (names.length === 0) return [];
  return [{ value: -1, label: 'Magnitude' }, ...names.map((n, i) => ({ value: i, label: `Component ${n}` }))];
}

/** The vector field streamlines follow for the selected entry: it, or the first vector field. */
export function streamlineFieldFor(
  option: SurfaceOption | undefined,
  fields: FieldSummary[] | null,
): string | null {
  if (!fields) return option?.mode === 1 || option?.mode === 3 ? 'H' : 'E';
  const own = fields.find((f) => f.name === option?.name && f.kind === 'vector');
  return own?.name ?? fields.find((f) => f.kind === 'vector')?.name ?? null;
}
