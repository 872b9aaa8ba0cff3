// Binary min-heap of graph node ids keyed by a float priority, backed by typed arrays so an A*
// run allocates two buffers instead of one object per queued node.
export class NodeHeap {
  private readonly nodes: Int32Array;
  private readonly keys: Float64Array;
  size = 0;

  /** `capacity` must bound the number of pushes: A* with lazy deletion pushes at most once per edge relaxation. */
  constructor(capacity: number) {
    this.nodes = new Int32Array(capacity);
    this.keys = new Float64Array(capacity);
  }

  push(node: number, key: number): void {
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent] <= key) break;
      this.nodes[i] = this.nodes[parent];
      this.keys[i] = this.keys[parent];
      i = parent;
    }
    this.nodes[i] = node;
    this.keys[i] = key;
  }

  /** Removes and returns the node with the smallest key; the caller checks `size` first. */
  pop(): number {
    const top = this.nodes[0];
    const last = --this.size;
    const node = this.nodes[last];
    const key = this.keys[last];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      if (child + 1 < last && this.keys[child + 1] < this.keys[child]) child++;
      if (this.keys[child] >= key) break;
      this.nodes[i] = this.nodes[child];
      this.keys[i] = this.keys[child];
      i = child;
    }
    this.nodes[i] = node;
    this.keys[i] = key;
    return top;
  }
}
