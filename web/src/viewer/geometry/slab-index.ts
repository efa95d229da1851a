/**
 * Tetrahedra bucketed by where they lie along one direction: for a plane n·x = d only the tetrahedra of
 * the slab holding d can be cut, so a slice of a million tetrahedra checks a few thousand. Built once
 * per direction (moving the offset is the common case: the slider, wheel scrubbing).
 */
export class SlabIndex {
  /** n·x per vertex */
  readonly projection: Float64Array;
  readonly min: number;
  readonly max: number;
  private readonly start: Uint32Array;
  private readonly items: Uint32Array;
  private readonly slabs: number;

  constructor(
    positions: Float32Array,
    tets: Uint32Array,
    readonly normal: readonly [number, number, number],
  ) {
    const nv = positions.length / 3;
    const nt = tets.length / 4;
    const [nx, ny, nz] = normal;
    this.projection = new Float64Array(nv);
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < nv; i++) {
      const d = nx * positions[3 * i]! + ny * positions[3 * i + 1]! + nz * positions[3 * i + 2]!;
      this.projection[i] = d;
      if (d < lo) lo = d;
      if (d > hi) hi = d;
    }
    this.min = lo;
    this.max = hi;
    // Slabs about as thick as a tetrahedron (so each lies in one or two): the mean extent along n.
    let extent = 0;
    for (let t = 0; t < nt; t++) {
      let a = Number.POSITIVE_INFINITY;
      let b = Number.NEGATIVE_INFINITY;
      for (let j = 0; j < 4; j++) {
        const d = this.projection[tets[4 * t + j]!]!;
        if (d < a) a = d;
        if (d > b) b = d;
      }
      extent += b - a;
    }
    extent /= Math.max(1, nt);
    const span = hi - lo;
    this.slabs = Math.max(1, Math.min(4096, extent > 0 ? Math.floor(span / extent) : 1));
    const tmin = new Uint16Array(nt);
    const tmax = new Uint16Array(nt);
    const counts = new Uint32Array(this.slabs + 1);
    for (let t = 0; t < nt; t++) {
      let a = Number.POSITIVE_INFINITY;
      let b = Number.NEGATIVE_INFINITY;
      for (let j = 0; j < 4; j++) {
        const d = this.projection[tets[4 * t + j]!]!;
        if (d < a) a = d;
        if (d > b) b = d;
      }
      const s0 = this.slabOf(a);
      const s1 = this.slabOf(b);
      tmin[t] = s0;
      tmax[t] = s1;
      for (let s = s0; s <= s1; s++) counts[s + 1]!++;
    }
    for (let s = 0; s < this.slabs; s++) counts[s + 1]! += counts[s]!;
    this.start = counts;
    this.items = new Uint32Array(counts[this.slabs]!);
    const fill = counts.slice(0, this.slabs);
    for (let t = 0; t < nt; t++) for (let s = tmin[t]!; s <= tmax[t]!; s++) this.items[fill[s]!++] = t;
  }

  private slabOf(d: number): number {
    const span = this.max - this.min;
    if (!(span > 0)) return 0;
    return Math.min(this.slabs - 1, Math.max(0, Math.floor(((d - this.min) / span) * this.slabs)));
  }

  sameNormal(normal: readonly [number, number, number]): boolean {
    return normal[0] === this.normal[0] && normal[1] === this.normal[1] && normal[2] === this.normal[2];
  }

  /** The tetrahedra that may meet the plane n·x = offset (a superset of those cut). */
  candidates(offset: number): Uint32Array {
    if (offset < this.min || offset > this.max) return new Uint32Array(0);
    const s = this.slabOf(offset);
    return this.items.subarray(this.start[s]!, this.start[s + 1]!);
  }
}
