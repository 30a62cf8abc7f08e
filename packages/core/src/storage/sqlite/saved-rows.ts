import type { VectorAttrs } from "./vector-set.js";

export interface Row extends VectorAttrs {
  readonly id: string;
}

const MAGIC = "engram-rows-1";

/**
 * The rows an index file holds (rowid, id, tier, expired), saved beside it sorted by rowid, and read
 * without building a map: an open looks up only the rows its searches return (binary search), so
 * opening 100k rows costs a file read, not 100k map entries.
 * Layout: u32 header length, JSON header {magic, count, tiers, idBytes}, then f64 rowids, u8 tier
 * indexes, u8 expired flags, u32 id offsets (count + 1), the ids' UTF-8 bytes.
 */
export class SavedRows {
  private constructor(
    readonly rowids: Float64Array,
    private readonly tierIndex: Uint8Array,
    readonly expired: Uint8Array,
    private readonly offsets: Uint32Array,
    private readonly ids: Buffer,
    private readonly tiers: readonly string[],
    private readonly kind: string,
  ) {}

  get count(): number {
    return this.rowids.length;
  }

  /** The position of a rowid, or -1. */
  find(rowid: number): number {
    const { rowids } = this;
    let lo = 0;
    let hi = rowids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = rowids[mid] as number;
      if (at === rowid) return mid;
      if (at < rowid) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  row(position: number): Row {
    return {
      id: this.ids.toString("utf8", this.offsets[position], this.offsets[position + 1]),
      kind: this.kind,
      tier: this.tiers[this.tierIndex[position] as number] as string,
      expired: this.expired[position] === 1,
    };
  }

  /** Parses a saved file; throws on anything malformed (the caller rebuilds). */
  static parse(bytes: Buffer, kind: string): SavedRows {
    const headerLength = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.toString("utf8", 4, 4 + headerLength)) as {
      magic: string;
      count: number;
      tiers: string[];
      idBytes: number;
    };
    const { count, tiers, idBytes } = header;
    if (header.magic !== MAGIC || !Number.isSafeInteger(count) || count < 0) {
      throw new Error("not a saved rows file");
    }
    let at = 4 + headerLength;
    const take = (length: number): ArrayBuffer => {
      if (at + length > bytes.length) throw new Error("saved rows file is truncated");
      const copy = new Uint8Array(length);
      copy.set(bytes.subarray(at, at + length));
      at += length;
      return copy.buffer;
    };
    const rowids = new Float64Array(take(count * 8));
    const tierIndex = new Uint8Array(take(count));
    const expired = new Uint8Array(take(count));
    const offsets = new Uint32Array(take((count + 1) * 4));
    const ids = Buffer.from(take(idBytes));
    if (at !== bytes.length || offsets[count] !== idBytes) throw new Error("saved rows file is malformed");
    return new SavedRows(rowids, tierIndex, expired, offsets, ids, tiers, kind);
  }

  /** Serialises rows, sorted here by rowid. */
  static serialize(rows: Iterable<[number, Row]>): Buffer {
    const sorted = [...rows].sort((a, b) => a[0] - b[0]);
    const count = sorted.length;
    const tiers: string[] = [];
    const tierOf = new Map<string, number>();
    const rowids = new Float64Array(count);
    const tierIndex = new Uint8Array(count);
    const expired = new Uint8Array(count);
    const offsets = new Uint32Array(count + 1);
    const idBuffers: Buffer[] = [];
    let idBytes = 0;
    for (const [i, [rowid, row]] of sorted.entries()) {
      let tier = tierOf.get(row.tier);
      if (tier === undefined) {
        tier = tiers.length;
        if (tier > 255) throw new Error("more than 256 tiers in one vector set");
        tiers.push(row.tier);
        tierOf.set(row.tier, tier);
      }
      rowids[i] = rowid;
      tierIndex[i] = tier;
      expired[i] = row.expired ? 1 : 0;
      const id = Buffer.from(row.id, "utf8");
      idBuffers.push(id);
      idBytes += id.length;
      offsets[i + 1] = idBytes;
    }
    const header = Buffer.from(JSON.stringify({ magic: MAGIC, count, tiers, idBytes }), "utf8");
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.length, 0);
    return Buffer.concat([
      length,
      header,
      Buffer.from(rowids.buffer),
      Buffer.from(tierIndex.buffer),
      Buffer.from(expired.buffer),
      Buffer.from(offsets.buffer),
      ...idBuffers,
    ]);
  }
}
