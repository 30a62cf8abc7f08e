import type { Cube } from "./scope.js";

/**
 * What a memory is. `message` is one raw dialogue turn (the unit everything else is built from); a
 * `passage` is part of a long message, searched on its behalf (see model/passages.ts);
 * `page`, `segment`, `fact` and `profile` belong to the tiered engine; `item` is a keyed document
 * (e.g. a LangGraph store item); `trace` is one run of an agent's task with its tool calls, and `skill` the
 * procedure distilled from recurring traces (procedural memory).
 */
export const MEMORY_KINDS = [
  "message",
  "passage",
  "page",
  "segment",
  "fact",
  "profile",
  "item",
  "trace",
  "skill",
] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

/** Short-term (recent pages), mid-term (topic segments), long-term (persona: profile and facts). */
export const TIERS = ["short", "mid", "long"] as const;
export type Tier = (typeof TIERS)[number];

export const ROLES = ["user", "assistant", "system", "tool"] as const;
export type Role = (typeof ROLES)[number];

/** `ready`: searchable and complete. `pending`: stored and searchable, enrichment still queued. */
export const MEMORY_STATUSES = ["ready", "pending"] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

export interface MemoryRecord {
  readonly id: string;
  readonly userId: string;
  readonly cube: Cube;
  readonly agentId: string | null;
  readonly sessionId: string | null;
  readonly kind: MemoryKind;
  readonly tier: Tier;
  readonly role: Role | null;
  /** Speaker name, when the source gives one. */
  readonly name: string | null;
  /** The memory itself, as shown to people and models. */
  readonly text: string;
  /** Neighbouring text searched together with `text` (for a message: the turn before it in its session). */
  readonly context: string | null;
  /** A caller-chosen key, unique per cube and kind when set (store items, facts). */
  readonly key: string | null;
  /**
   * Free-form JSON metadata. Records read back may be shared, frozen snapshots (the SQLite backend
   * remembers records it has read): copy before changing.
   */
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly status: MemoryStatus;
  /** 1 on creation, +1 on every update; earlier versions live in history. */
  readonly version: number;
  /** Event time: when it was said or became true (ISO 8601). */
  readonly validFrom: string | null;
  /** Event time: when it stopped being true. */
  readonly validTo: string | null;
  /** System time: when Engram stored it. */
  readonly createdAt: string;
  readonly updatedAt: string;
  /** System time: when Engram learned it no longer holds (superseded); null while current. */
  readonly expiredAt: string | null;
}

/** A record plus its embedding, as handed to storage. */
export interface StoredMemory {
  readonly record: MemoryRecord;
  /**
   * Unit-length embedding of the searchable text; null removes a stored one (none was computed). Left out,
   * a record already stored keeps the vector it has (a write that changes only the record's fields, such
   * as its tier or metadata, never reads the vector to send it back), and a new record has none.
   */
  readonly vector?: Float32Array | null;
}

export const HISTORY_EVENTS = ["create", "update", "supersede", "delete"] as const;
export type HistoryEvent = (typeof HISTORY_EVENTS)[number];

/** One earlier (or the current) state of a memory. */
export interface MemoryVersion {
  readonly memoryId: string;
  readonly userId: string;
  readonly version: number;
  readonly event: HistoryEvent;
  readonly text: string;
  readonly metadata: Record<string, unknown>;
  readonly at: string;
}

export const EDGE_TYPES = ["part_of", "next", "derived_from", "supersedes", "about", "related"] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

export interface MemoryEdge {
  readonly userId: string;
  readonly from: string;
  readonly to: string;
  readonly type: EdgeType;
  readonly createdAt: string;
}
