/**
 * An open-addressing hash table keyed by a vertex triple (order-free) or pair, for surface extraction
 * on large meshes without creating strings or objects per face.
 */
export class TripleTable {
  private readonly a: Int32Array;
  private readonly b: Int32Array;
  private readonly c: Int32Array;
  readonly value: Int32Array;
  private readonly mask: number;
  size = 0;

  constructor(expected: number) {
    let cap = 16;
    while (cap < expected * 1.6) cap *= 2;
    this.a = new Int32Array(cap).fill(-1);
    this.b = new Int32Array(cap);
    this.c = new Int32Array(cap);
    this.value = new Int32Array(cap);
    this.mask = cap - 1;
  }

  /** Slot of the sorted triple (x ≤ y ≤ z); inserts with `value` when new. Returns [slot, wasNew]. */
  slot(x: number, y: number, z: number, value: number): number {
    let h = (Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791)) & this.mask;
    for (;;) {
      const k = this.a[h]!;
      if (k === -1) {
        this.a[h] = x;
        this.b[h] = y;
        this.c[h] = z;
        this.value[h] = value;
        this.size++;
        return -(h + 1);
      }
      if (k === x && this.b[h] === y && this.c[h] === z) return h;
      h = (h + 1) & this.mask;
    }
  }

  find(x: number, y: number, z: number): number {
    let h = (Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791)) & this.mask;
    for (;;) {
      const k = this.a[h]!;
      if (k === -1) return -1;
      if (k === x && this.b[h] === y && this.c[h] === z) return h;
      h = (h + 1) & this.mask;
    }
  }
}

/** Sorts three numbers into the given array. */
export function sort3(x: number, y: number, z: number, out: number[]): void {
  let a = x;
  let b = y;
  let c = z;
  if (a > b) [a, b] = [b, a];
  if (b > c) [b, c] = [c, b];
  if (a > b) [a, b] = [b, a];
  out[0] = a;
  out[1] = b;
  out[2] = c;
}
