import type { ViewerAnimation, ViewerField, ViewerFields } from '@fieldline/contracts';
import type { ViewerPayload } from '../../../results-format/index.ts';

/**
 * Two study points side by side (docs/studies.md "Comparing two points"): which fields both have, the one
 * legend range they share, and their difference field where both ran on the same mesh. Knows fields only by
 * their catalogue entry (kind, location, unit), never by physics.
 */

function sameArray(a: ArrayLike<number> | undefined, b: ArrayLike<number> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const vertexCount = (p: ViewerPayload) => Math.floor(p.mesh.positions.length / 3);
const tetCount = (p: ViewerPayload) => Math.floor((p.mesh.tetrahedra?.length ?? 0) / 4);

/**
 * Null when the two results are on one mesh (the same vertices at the same places, the same tetrahedra and
 * surface), so a value of one can be subtracted from the other's at the same vertex; else why not.
 */
export function whyNotSameMesh(a: ViewerPayload, b: ViewerPayload): string | null {
  const [na, nb] = [vertexCount(a), vertexCount(b)];
  if (na !== nb)
    return `The two points were solved on different meshes (${na.toLocaleString('en-US')} and ${nb.toLocaleString('en-US')} vertices): a difference field needs one mesh.`;
  const [ta, tb] = [tetCount(a), tetCount(b)];
  if (ta !== tb)
    return `The two points were solved on different meshes (${ta.toLocaleString('en-US')} and ${tb.toLocaleString('en-US')} tetrahedra): a difference field needs one mesh.`;
  if (
    !sameArray(a.mesh.positions, b.mesh.positions) ||
    !sameArray(a.mesh.tetrahedra, b.mesh.tetrahedra) ||
    !sameArray(a.mesh.triangles, b.mesh.triangles)
  )
    return 'The two points have as many vertices but the vertices are not the same (each point was meshed on its own): a difference field needs one mesh.';
  return null;
}

function sameShape(x: ViewerField, y: ViewerField): boolean {
  return x.kind === y.kind && x.location === y.location && x.values.length === y.values.length;
}

/** Names of the fields both results have with the same kind, location and size, in A's order. */
export function comparableFields(a: ViewerPayload, b: ViewerPayload): string[] {
  return Object.keys(a.fields ?? {}).filter((name) => {
    const [x, y] = [a.fields?.[name], b.fields?.[name]];
    return x !== undefined && y !== undefined && sameShape(x, y);
  });
}

function subtract(x: Float32Array, y: Float32Array): Float32Array {
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = x[i]! - y[i]!;
  return out;
}

/**
 * A − B for every comparable field, on A's mesh (call only when whyNotSameMesh is null). Phasors subtract
 * their real and imaginary parts; a displacement's difference is not a shape to warp by, so no field keeps a
 * role. Animation frames (time steps, phases, modes, frequencies) subtract frame by frame when both results
 * have the same frames (`differenceFrames`).
 */
export function differencePayload(a: ViewerPayload, b: ViewerPayload): ViewerPayload {
  const fields: ViewerFields = {};
  for (const name of comparableFields(a, b)) {
    const x = a.fields?.[name] as ViewerField;
    const y = b.fields?.[name] as ViewerField;
    const imag =
      x.imag || y.imag
        ? subtract(x.imag ?? new Float32Array(x.values.length), y.imag ?? new Float32Array(y.values.length))
        : undefined;
    fields[name] = {
      label: `${x.label} (A − B)`,
      unit: x.unit,
      kind: x.kind,
      location: x.location,
      values: subtract(x.values, y.values),
      ...(imag ? { imag } : {}),
    };
  }
  const { animation } = differenceFrames(a, b, fields);
  return { mesh: a.mesh, fields, ...(animation ? { animation } : {}) };
}

const frameCount = (p: ViewerPayload) => p.animation?.frames.length ?? 0;
const AXIS_WORDS: Record<ViewerAnimation['axis'], string> = {
  time: 'time steps',
  phase: 'phases',
  mode: 'modes',
  frequency: 'frequencies',
};
const describe = (p: ViewerPayload) =>
  frameCount(p) > 0 ? `${frameCount(p)} ${AXIS_WORDS[p.animation?.axis ?? 'time']}` : 'no frames';
const close = (x: number, y: number) => Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y), 1e-300);
const num = (v: number) => Number(v.toPrecision(5)).toString();

/**
 * The difference's animation: frame k of A − frame k of B for every field both frames hold at the difference
 * field's size, when both results have the same frames — the same axis and count and, on a time, phase or
 * frequency axis, the same frame values (a mode axis pairs mode k with mode k, whatever their
 * frequencies; the labels give both). Otherwise no animation and `note` says why; null when neither result
 * has frames. A frame entry kept as magnitudes only (a vector field too large to keep per frame) cannot be
 * subtracted: |A| − |B| is not |A − B|, so that field stays still and the note names it.
 */
export function differenceFrames(
  a: ViewerPayload,
  b: ViewerPayload,
  fields: ViewerFields,
): { animation?: ViewerAnimation; note: string | null } {
  const [fa, fb] = [a.animation, b.animation];
  if (!fa?.frames.length && !fb?.frames.length) return { note: null };
  const why = (reason: string) => ({
    note: `The difference is not animated: ${reason}. It shows the fields A − B of the results themselves.`,
  });
  if (
    !fa?.frames.length ||
    !fb?.frames.length ||
    fa.axis !== fb.axis ||
    fa.frames.length !== fb.frames.length
  )
    return why(`point A has ${describe(a)}, point B ${describe(b)}`);
  if (fa.axis !== 'mode') {
    const [va, vb] = [fa.frameValues ?? [], fb.frameValues ?? []];
    const k = va.findIndex((v, i) => vb[i] === undefined || !close(v, vb[i] as number));
    const unit = fa.unit ? ` ${fa.unit}` : '';
    if (k >= 0)
      return why(
        `frame ${k + 1} is at ${num(va[k] as number)}${unit} in A and ${num(vb[k] as number)}${unit} in B`,
      );
    if (va.length !== vb.length) return why(`the two results' ${AXIS_WORDS[fa.axis]} differ`);
  }
  const still = new Set<string>();
  const frames = fa.frames.map((frameA, k) => {
    const frameB = fb.frames[k] ?? {};
    const out: Record<string, Float32Array> = {};
    for (const [name, x] of Object.entries(frameA)) {
      const y = frameB[name];
      const size = fields[name]?.values.length;
      if (!y || size === undefined) continue;
      if (x.length !== size || y.length !== size) {
        still.add(name);
        continue;
      }
      out[name] = subtract(x, y);
    }
    return out;
  });
  const labels =
    fa.axis === 'mode'
      ? fa.frames.map((_, k) => {
          const [x, y] = [fa.frameValues?.[k], fb.frameValues?.[k]];
          return x !== undefined && y !== undefined
            ? `mode ${k + 1}: A ${num(x)} ${fa.unit ?? 'Hz'}, B ${num(y)} ${fb.unit ?? 'Hz'}`
            : `mode ${k + 1}`;
        })
      : fa.frameLabels;
  const animation: ViewerAnimation = {
    frames,
    axis: fa.axis,
    ...(fa.frameValues ? { frameValues: fa.frameValues } : {}),
    ...(labels ? { frameLabels: labels } : {}),
    ...(fa.unit ? { unit: fa.unit } : {}),
  };
  const names = [...still].map((n) => fields[n]?.label.replace(/ \(A − B\)$/, '') ?? n);
  return {
    animation,
    note: names.length
      ? `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} kept per frame as magnitudes only (|A| − |B| is not |A − B|): ${names.length === 1 ? 'it stays' : 'they stay'} still while the rest animates.`
      : null,
  };
}

export interface Range {
  min: number;
  max: number;
}

/** The one range both panes' legends show: from the smaller minimum to the larger maximum. */
export function sharedRange(ranges: readonly Range[]): Range | null {
  if (ranges.length === 0) return null;
  return {
    min: Math.min(...ranges.map((r) => r.min)),
    max: Math.max(...ranges.map((r) => r.max)),
  };
}
