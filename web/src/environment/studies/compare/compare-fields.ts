import type { ViewerField, ViewerFields } from '@fieldline/contracts';
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
 * role. Animation frames are not compared.
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
  return { mesh: a.mesh, fields };
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
