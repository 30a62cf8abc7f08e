/** A record a committed write stored, as the connection's memories of the file need to hear of it. */
export interface WrittenRecord {
  readonly id: string;
  readonly kind: string;
  readonly tier: string;
  readonly expired: boolean;
  /** Its vector after the write: null none, undefined kept as it was. */
  readonly vector?: Float32Array | null;
}

/** One of this connection's own writes, committed. */
export interface CommittedWrite {
  readonly userId: string;
  /** Ids of the records it deleted. */
  readonly removed: readonly string[];
  /** The records it inserted or upserted. */
  readonly written: readonly WrittenRecord[];
  /** Rowids it re-indexed in full text or deleted (a moved or deleted row; rowids are reused). */
  readonly reindexed: readonly number[];
  /** Whether it added edges (deleting a record deletes its edges too). */
  readonly edges: boolean;
}

/**
 * What the connection remembers of the file between calls (loaded vectors, full-text terms and rows,
 * rowid blocks, edges, records). Each is told of every write the connection commits, in one place, and
 * drops what it holds when another connection wrote the file or a user is forgotten.
 */
export interface Remembered {
  written(write: CommittedWrite): void;
  /** Another connection wrote: forget all. With `userId`: that user was forgotten. */
  drop(userId?: string): void;
}
