import type { AnalysisConfig, MeshData } from '@fieldline/contracts';
import { HttpError } from '../http/errors.ts';

/**
 * Face ids in an analysis config must name surface faces of the submitted model. The engine refuses an id
 * out of range (engine core/regions.py), but only after the job was queued and charged; this is the same
 * refusal at submit.
 *
 * The engine numbers surface faces as engine mesh/tet_model.py `_surface_faces` does: the given `faces`
 * in their order (face id k is row k − 1), then every boundary face of the tetrahedra (a face of exactly
 * one tetrahedron) that no given face covers. When a given triangle is not a face of any tetrahedron (a
 * surface from before meshing) it numbers the boundary faces alone.
 */

/** Above this the engine refuses the model (engine mesh/tet_model.py `_face_keys`). */
const MAX_VERTICES = 2_000_000;

type FaceLists = { key: string; lists: () => { faces?: number[] }[] | undefined }[];

/** The config lists of face ids each family's engine code reads (others in the config are ignored there). */
function faceListsRead(config: AnalysisConfig): FaceLists {
  const c = config as AnalysisConfig & Record<string, unknown>;
  const list = (key: string) => ({ key, lists: () => c[key] as { faces?: number[] }[] | undefined });
  const type = String(config.analysisType ?? 'em');
  if (type === 'em' || type === 'em-time' || type === 'em-eigen') {
    // engine em/boundary_conditions.py resolve_boundaries, used by every EM path.
    return [
      list('dirichletFaceConditions'),
      list('neumannConditions'),
      list('impedanceConditions'),
      ...(config.useWavePorts ? [list('wavePorts')] : []),
    ];
  }
  if (type === 'thermal-structural')
    // coupled/thermal_structural.py: the thermal step's lists, then the structural step's.
    return [
      ...faceListsRead({ ...config, analysisType: 'thermal' }),
      ...faceListsRead({ ...config, analysisType: 'structural' }),
    ];
  if (type === 'thermal' || type === 'thermal-time') {
    // engine thermal/setup.py; Joule heating also solves the conduction of the Dirichlet groups.
    return [
      list('temperatureConditions'),
      list('neumannConditions'),
      list('convectionConditions'),
      list('radiationConditions'),
      ...(config.jouleHeating ? [list('dirichletFaceConditions')] : []),
      // induction heating solves the config's eddy-current setup first (engine thermal/induction.py)
      ...(config.inductionHeating ? faceListsRead({ ...config, analysisType: 'eddy-current' }) : []),
    ];
  }
  if (type === 'magnetostatic' || type === 'eddy-current') {
    // engine em/magnetics/setup.py: symmetry planes and the terminals of open coils and of open solid
    // conductors (em/magnetics/solid_conductors.py).
    type WithTerminals = { terminals?: { in: number[]; out: number[] } }[] | undefined;
    const terminals = (key: 'coils' | 'solidConductors') => () =>
      (c[key] as WithTerminals)?.flatMap((entry) =>
        entry.terminals ? [{ faces: entry.terminals.in }, { faces: entry.terminals.out }] : [],
      );
    return [
      list('magneticBoundaries'),
      { key: 'coils', lists: terminals('coils') },
      { key: 'solidConductors', lists: terminals('solidConductors') },
    ];
  }
  if (type === 'structural' || type === 'modal' || type === 'harmonic') {
    // engine core/elasticity/setup.py elastic_setup, shared by the static and vibration families.
    return [list('fixedSupports'), list('displacementConditions'), list('forceLoads'), list('pressureLoads')];
  }
  return [];
}

/** The 400 for the first face id in a list the engine reads that is not a surface face of the mesh. */
export function refuseFaceIdsOutOfRange(mesh: MeshData, config: AnalysisConfig): void {
  const read = faceListsRead(config).map(({ key, lists }) => ({ key, entries: lists() ?? [] }));
  if (!read.some(({ entries }) => entries.some((e) => (e?.faces?.length ?? 0) > 0))) return;
  const count = surfaceFaceCount(mesh);
  if (count === null) return; // a mesh the engine refuses for itself, with its own message
  for (const { key, entries } of read)
    entries.forEach((entry, k) => {
      const face = entry?.faces?.find((f) => f < 1 || f > count);
      if (face === undefined) return;
      throw new HttpError(
        400,
        'invalid_request',
        `config.${key}.${k}.faces: face id ${face} is out of range; the model has ${count} surface faces (ids 1–${count}).`,
        { status: 'error' },
      );
    });
}

/**
 * How many surface faces the engine numbers for this mesh, in O(faces) time; null when it would refuse the
 * mesh before numbering (no tetrahedra, a face that is not a triangle, a face of three tetrahedra).
 */
export function surfaceFaceCount(mesh: MeshData): number | null {
  const tets = mesh.tetrahedra ?? [];
  if (tets.length === 0 || mesh.vertices.length > MAX_VERTICES) return null;
  const table = new FaceTable(4 * tets.length);
  for (let k = 0; k < tets.length; k++) {
    const t = tets[k] as number[];
    const a = t[0] as number;
    const b = t[1] as number;
    const c = t[2] as number;
    const d = t[3] as number;
    if (!table.add(b, c, d) || !table.add(a, c, d) || !table.add(a, b, d) || !table.add(a, b, c)) return null;
  }
  const given = mesh.faces;
  if (given.length === 0) return table.boundary;
  if (given.some((f) => f.length !== 3)) return null;
  let coveredBoundary = 0;
  for (const f of given) {
    const slot = table.find(f[0] as number, f[1] as number, f[2] as number);
    if (slot < 0) return table.boundary; // not a face of the volume mesh: the boundary faces alone
    if (table.shared(slot) === 1) {
      table.cover(slot); // a covered boundary face: subtracted once however often it is given
      coveredBoundary++;
    }
  }
  return given.length + table.boundary - coveredBoundary;
}

const COVERED = 3;

/**
 * Open-addressing hash set of sorted vertex triples and how many tetrahedra share each, in one typed
 * array (slot i: a, b, c, count at 4i…4i+3, so a probe reads one cache line).
 */
class FaceTable {
  readonly slots: Int32Array;
  readonly mask: number;
  /** faces of exactly one tetrahedron */
  boundary = 0;

  constructor(faces: number) {
    // A volume mesh has about half as many distinct faces as tetrahedron faces (interior ones are
    // shared): this keeps the load near 0.4 and below 0.8 even if no face were shared.
    let size = 1024;
    while (size < 1.25 * faces) size *= 2;
    this.slots = new Int32Array(4 * size);
    this.mask = size - 1;
  }

  /** Adds one tetrahedron face; false when a third tetrahedron shares it (non-manifold). */
  add(x: number, y: number, z: number): boolean {
    // Sorted without allocating (this runs four times per tetrahedron).
    const p = Math.min(x, y, z);
    const r = Math.max(x, y, z);
    const q = x + y + z - p - r;
    const s = this.slots;
    let i = hash(p, q, r) & this.mask;
    for (;;) {
      const at = 4 * i;
      const n = s[at + 3] as number;
      if (n === 0) {
        s[at] = p;
        s[at + 1] = q;
        s[at + 2] = r;
        s[at + 3] = 1;
        this.boundary++;
        return true;
      }
      if (s[at] === p && s[at + 1] === q && s[at + 2] === r) {
        if (n >= 2) return false;
        s[at + 3] = 2;
        this.boundary--;
        return true;
      }
      i = (i + 1) & this.mask;
    }
  }

  /** The slot of a face, or −1. */
  find(x: number, y: number, z: number): number {
    const p = Math.min(x, y, z);
    const r = Math.max(x, y, z);
    const q = x + y + z - p - r;
    const s = this.slots;
    let i = hash(p, q, r) & this.mask;
    while (s[4 * i + 3] !== 0) {
      const at = 4 * i;
      if (s[at] === p && s[at + 1] === q && s[at + 2] === r) return i;
      i = (i + 1) & this.mask;
    }
    return -1;
  }

  /** How many tetrahedra share the face in `slot` (COVERED once a given face took it). */
  shared(slot: number): number {
    return this.slots[4 * slot + 3] as number;
  }

  cover(slot: number): void {
    this.slots[4 * slot + 3] = COVERED;
  }
}

function hash(p: number, q: number, r: number): number {
  let h = Math.imul(p, 0x9e3779b1) ^ Math.imul(q, 0x85ebca77) ^ Math.imul(r, 0xc2b2ae3d);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) >>> 0;
}
