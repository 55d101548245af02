/**
 * The A* open list: a binary min-heap of node ids in parallel typed arrays,
 * ordered by f, then h (deeper first), then insertion order (FIFO), so ties
 * resolve by the action order the caller generated successors in.
 * `pop()` leaves the popped entry in `node`, `g` and `f`.
 */
export class OpenList {
  private nodes = new Int32Array(64);
  private fs = new Float64Array(64);
  private hs = new Float64Array(64);
  private gs = new Float64Array(64);
  private seqs = new Float64Array(64);
  private seq = 0;
  size = 0;
  /** Entries to jump to once the list is large (see `JUMP_AT` in search-setup), instead of doubling. */
  reserveHint = 0;
  node = 0;
  g = 0;
  f = 0;

  /** Entries the arrays hold before they grow. */
  get capacity(): number {
    return this.nodes.length;
  }

  /** Empties the list, keeping its arrays. */
  clear(): void {
    this.size = 0;
    this.seq = 0;
    this.reserveHint = 0;
  }

  push(node: number, f: number, h: number, g: number): void {
    if (this.size === this.nodes.length) this.grow();
    const { nodes, fs, hs, gs, seqs } = this;
    const s = this.seq++;
    let i = this.size++;
    while (i > 0) {
      const up = (i - 1) >> 1;
      const uf = fs[up] as number;
      if (uf < f || (uf === f && ((hs[up] as number) < h || ((hs[up] as number) === h && (seqs[up] as number) < s)))) break;
      nodes[i] = nodes[up] as number;
      fs[i] = uf;
      hs[i] = hs[up] as number;
      gs[i] = gs[up] as number;
      seqs[i] = seqs[up] as number;
      i = up;
    }
    nodes[i] = node;
    fs[i] = f;
    hs[i] = h;
    gs[i] = g;
    seqs[i] = s;
  }

  pop(): void {
    const { nodes, fs, hs, gs, seqs } = this;
    this.node = nodes[0] as number;
    this.g = gs[0] as number;
    this.f = fs[0] as number;
    const n = --this.size;
    if (n === 0) return;
    const lNode = nodes[n] as number;
    const lf = fs[n] as number;
    const lh = hs[n] as number;
    const lg = gs[n] as number;
    const ls = seqs[n] as number;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      const r = c + 1;
      if (r < n) {
        const cf = fs[c] as number;
        const rf = fs[r] as number;
        if (
          rf < cf ||
          (rf === cf &&
            ((hs[r] as number) < (hs[c] as number) ||
              ((hs[r] as number) === (hs[c] as number) && (seqs[r] as number) < (seqs[c] as number))))
        )
          c = r;
      }
      const cf = fs[c] as number;
      if (lf < cf || (lf === cf && (lh < (hs[c] as number) || (lh === (hs[c] as number) && ls < (seqs[c] as number))))) break;
      nodes[i] = nodes[c] as number;
      fs[i] = cf;
      hs[i] = hs[c] as number;
      gs[i] = gs[c] as number;
      seqs[i] = seqs[c] as number;
      i = c;
    }
    nodes[i] = lNode;
    fs[i] = lf;
    hs[i] = lh;
    gs[i] = lg;
    seqs[i] = ls;
  }

  private grow(): void {
    const length = this.nodes.length;
    const cap = length >= 1 << 16 && this.reserveHint > length * 2 ? this.reserveHint : length * 2;
    const i32 = (old: Int32Array) => {
      const a = new Int32Array(cap);
      a.set(old);
      return a;
    };
    const f64 = (old: Float64Array) => {
      const a = new Float64Array(cap);
      a.set(old);
      return a;
    };
    this.nodes = i32(this.nodes);
    this.fs = f64(this.fs);
    this.hs = f64(this.hs);
    this.gs = f64(this.gs);
    this.seqs = f64(this.seqs);
  }
}

/** murmur3's 32-bit finalizer: a cheap, well-mixing hash of one word. */
export function fmix32(h: number): number {
  let x = h;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return x ^ (x >>> 16);
}
