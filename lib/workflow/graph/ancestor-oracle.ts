/** Above this many 32-bit words the bitsets would cost too much memory; queries then walk the graph. */
const MAX_BITSET_WORDS = 16_000_000;

/**
 * Answers "is A upstream of B" for many pairs without an O(n²) walk per query. Only nodes that
 * are actually referenced get a bit, so a 10,000-node chain whose nodes each read their
 * predecessor needs 10,000 × 313 words, and nodes that add no bit share their parent's set.
 */
export class AncestorOracle {
  private readonly bitByTarget = new Map<string, number>();
  private readonly bitsByNode = new Map<string, Uint32Array>();
  private readonly useBitsets: boolean;
  private readonly ordered: ReadonlySet<string>;

  /**
   * @param order a topological order; nodes missing from it (on cycles) get no answer
   * @param predecessors direct predecessors of a node
   * @param targets the nodes queries will ask about as ancestors
   * @param maxBitsetWords memory budget in 32-bit words; above it, queries walk the graph
   */
  constructor(
    private readonly order: readonly string[],
    private readonly predecessors: (nodeId: string) => readonly string[],
    targets: Iterable<string>,
    maxBitsetWords = MAX_BITSET_WORDS,
  ) {
    this.ordered = new Set(order);
    for (const target of targets) this.bitByTarget.set(target, this.bitByTarget.size);
    const words = Math.ceil(this.bitByTarget.size / 32);
    this.useBitsets = words * order.length <= maxBitsetWords;
    if (this.useBitsets) this.buildBitsets(words);
  }

  private buildBitsets(words: number): void {
    const empty = new Uint32Array(words);
    for (const nodeId of this.order) {
      const parents = this.predecessors(nodeId);
      if (parents.length === 1 && !this.bitByTarget.has(parents[0])) {
        this.bitsByNode.set(nodeId, this.bitsByNode.get(parents[0]) ?? empty);
        continue;
      }
      if (parents.length === 0) {
        this.bitsByNode.set(nodeId, empty);
        continue;
      }
      const bits = new Uint32Array(words);
      for (const parentId of parents) {
        const parentBits = this.bitsByNode.get(parentId);
        if (parentBits) for (let word = 0; word < words; word++) bits[word] |= parentBits[word];
        const bit = this.bitByTarget.get(parentId);
        if (bit !== undefined) bits[bit >>> 5] |= 1 << (bit & 31);
      }
      this.bitsByNode.set(nodeId, bits);
    }
  }

  /** Whether `ancestorId` reaches `nodeId`; `undefined` when `nodeId` has no place in the order. */
  isAncestor(ancestorId: string, nodeId: string): boolean | undefined {
    if (!this.ordered.has(nodeId)) return undefined;
    if (this.predecessors(nodeId).includes(ancestorId)) return true;
    if (this.useBitsets) {
      const bits = this.bitsByNode.get(nodeId);
      if (!bits) return undefined;
      const bit = this.bitByTarget.get(ancestorId);
      if (bit === undefined) return this.walk(ancestorId, nodeId);
      return (bits[bit >>> 5] & (1 << (bit & 31))) !== 0;
    }
    return this.walk(ancestorId, nodeId);
  }

  private walk(ancestorId: string, nodeId: string): boolean {
    const seen = new Set<string>([nodeId]);
    const pending = [nodeId];
    while (pending.length > 0) {
      for (const parentId of this.predecessors(pending.pop()!)) {
        if (parentId === ancestorId) return true;
        if (!seen.has(parentId)) {
          seen.add(parentId);
          pending.push(parentId);
        }
      }
    }
    return false;
  }
}
