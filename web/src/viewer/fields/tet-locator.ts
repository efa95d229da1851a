/**
 * Finds the tetrahedron containing a point (uniform grid of cells listing the tetrahedra whose bounding
 * boxes overlap them) and interpolates vertex fields linearly inside it (the P1 field of the mesh).
 */
export class TetLocator {
  readonly lo = [0, 0, 0];
  readonly hi = [0, 0, 0];
  private readonly dims: [number, number, number];
  private readonly cell: number;
  private readonly start: Uint32Array;
  private readonly items: Uint32Array;
  private readonly bary = new Float64Array(4);
  private last = -1;

  constructor(
    readonly positions: Float32Array,
    readonly tets: Uint32Array,
  ) {
    const nv = positions.length / 3;
    const nt = tets.length / 4;
    for (let k = 0; k < 3; k++) {
      this.lo[k] = Infinity;
      this.hi[k] = -Infinity;
    }
    for (let i = 0; i < nv; i++) {
      for (let k = 0; k < 3; k++) {
        const v = positions[3 * i + k]!;
        if (v < this.lo[k]!) this.lo[k] = v;
        if (v > this.hi[k]!) this.hi[k] = v;
      }
    }
    const ext = [0, 1, 2].map((k) => Math.max(this.hi[k]! - this.lo[k]!, 1e-30));
    const volume = ext[0]! * ext[1]! * ext[2]!;
    // About two tetrahedra per cell on average.
    this.cell = Math.max(Math.cbrt((volume / Math.max(1, nt)) * 2), Math.max(...ext) / 512);
    this.dims = [0, 1, 2].map((k) => Math.max(1, Math.ceil(ext[k]! / this.cell))) as [number, number, number];
    const cells = this.dims[0] * this.dims[1] * this.dims[2];
    const counts = new Uint32Array(cells + 1);
    const range = new Int32Array(6);
    const forCells = (t: number, visit: (c: number) => void) => {
      this.tetCellRange(t, range);
      for (let z = range[2]!; z <= range[5]!; z++)
        for (let y = range[1]!; y <= range[4]!; y++)
          for (let x = range[0]!; x <= range[3]!; x++) visit(x + this.dims[0] * (y + this.dims[1] * z));
    };
    for (let t = 0; t < nt; t++) forCells(t, (c) => counts[c + 1]!++);
    for (let c = 0; c < cells; c++) counts[c + 1]! += counts[c]!;
    this.start = counts;
    this.items = new Uint32Array(counts[cells]!);
    const fill = counts.slice(0, cells);
    for (let t = 0; t < nt; t++)
      forCells(t, (c) => {
        this.items[fill[c]!++] = t;
      });
  }

  private cellIndex(v: number, k: number): number {
    return Math.min(this.dims[k]! - 1, Math.max(0, Math.floor((v - this.lo[k]!) / this.cell)));
  }

  private tetCellRange(t: number, out: Int32Array): void {
    for (let k = 0; k < 3; k++) {
      let mn = Infinity;
      let mx = -Infinity;
      for (let j = 0; j < 4; j++) {
        const v = this.positions[3 * this.tets[4 * t + j]! + k]!;
        if (v < mn) mn = v;
        if (v > mx) mx = v;
      }
      out[k] = this.cellIndex(mn, k);
      out[k + 3] = this.cellIndex(mx, k);
    }
  }

  /** Barycentric coordinates of p in tetrahedron t (into this.bary); true when inside (with tolerance). */
  private inside(t: number, x: number, y: number, z: number): boolean {
    const p = this.positions;
    const o = 4 * t;
    const a = 3 * this.tets[o]!;
    const b = 3 * this.tets[o + 1]!;
    const c = 3 * this.tets[o + 2]!;
    const d = 3 * this.tets[o + 3]!;
    const ax = p[a]!;
    const ay = p[a + 1]!;
    const az = p[a + 2]!;
    const bx = p[b]! - ax;
    const by = p[b + 1]! - ay;
    const bz = p[b + 2]! - az;
    const cx = p[c]! - ax;
    const cy = p[c + 1]! - ay;
    const cz = p[c + 2]! - az;
    const dx = p[d]! - ax;
    const dy = p[d + 1]! - ay;
    const dz = p[d + 2]! - az;
    const px = x - ax;
    const py = y - ay;
    const pz = z - az;
    const det = bx * (cy * dz - cz * dy) - by * (cx * dz - cz * dx) + bz * (cx * dy - cy * dx);
    if (det === 0) return false;
    const l1 = (px * (cy * dz - cz * dy) - py * (cx * dz - cz * dx) + pz * (cx * dy - cy * dx)) / det;
    const l2 = (bx * (py * dz - pz * dy) - by * (px * dz - pz * dx) + bz * (px * dy - py * dx)) / det;
    const l3 = (bx * (cy * pz - cz * py) - by * (cx * pz - cz * px) + bz * (cx * py - cy * px)) / det;
    const l0 = 1 - l1 - l2 - l3;
    const eps = -1e-9;
    if (l0 < eps || l1 < eps || l2 < eps || l3 < eps) return false;
    this.bary[0] = l0;
    this.bary[1] = l1;
    this.bary[2] = l2;
    this.bary[3] = l3;
    return true;
  }

  /** The tetrahedron containing (x, y, z), or −1 outside the mesh. */
  locate(x: number, y: number, z: number): number {
    if (this.last >= 0 && this.inside(this.last, x, y, z)) return this.last;
    for (let k = 0; k < 3; k++) {
      const v = k === 0 ? x : k === 1 ? y : z;
      if (v < this.lo[k]! - 1e-12 || v > this.hi[k]! + 1e-12) return -1;
    }
    const c =
      this.cellIndex(x, 0) + this.dims[0] * (this.cellIndex(y, 1) + this.dims[1] * this.cellIndex(z, 2));
    for (let i = this.start[c]!; i < this.start[c + 1]!; i++) {
      const t = this.items[i]!;
      if (this.inside(t, x, y, z)) {
        this.last = t;
        return t;
      }
    }
    return -1;
  }

  /** The P1 interpolant of a vector field (xyz per vertex) at a point into `out`; false outside. */
  vectorAt(vectors: Float32Array, x: number, y: number, z: number, out: Float64Array): boolean {
    const t = this.locate(x, y, z);
    if (t < 0) return false;
    out[0] = 0;
    out[1] = 0;
    out[2] = 0;
    for (let j = 0; j < 4; j++) {
      const v = 3 * this.tets[4 * t + j]!;
      const w = this.bary[j]!;
      out[0] += w * vectors[v]!;
      out[1] += w * vectors[v + 1]!;
      out[2] += w * vectors[v + 2]!;
    }
    return true;
  }

  /** The P1 interpolant of a scalar field at a point; NaN outside. */
  scalarAt(values: Float32Array, x: number, y: number, z: number): number {
    const t = this.locate(x, y, z);
    if (t < 0) return Number.NaN;
    let s = 0;
    for (let j = 0; j < 4; j++) s += this.bary[j]! * values[this.tets[4 * t + j]!]!;
    return s;
  }

  get diagonal(): number {
    return Math.hypot(this.hi[0]! - this.lo[0]!, this.hi[1]! - this.lo[1]!, this.hi[2]! - this.lo[2]!);
  }
}
