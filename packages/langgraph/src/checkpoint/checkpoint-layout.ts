import type { KvEntry } from "@engram/core";

/**
 * Where a checkpointer keeps its rows in the owner's key-value space. Every row of a thread lives under
 * `["langgraph", "thread", threadId]`, so one prefix read finds all of it; the thread index names the
 * threads a user owns.
 */
export const THREAD_INDEX: readonly string[] = ["langgraph", "threads"];

export function threadRoot(threadId: string): string[] {
  return ["langgraph", "thread", threadId];
}

export function checkpointsNs(threadId: string, checkpointNs: string): string[] {
  return [...threadRoot(threadId), "checkpoints", checkpointNs];
}

export function writesNs(threadId: string, checkpointNs: string, checkpointId: string): string[] {
  return [...threadRoot(threadId), "writes", checkpointNs, checkpointId];
}

export function blobsNs(threadId: string, checkpointNs: string, channel: string): string[] {
  return [...threadRoot(threadId), "blobs", checkpointNs, channel];
}

/**
 * Checkpoint ids (uuid6) sort by time. Stored under the digit-wise complement of the id, key-value order
 * (ascending) is newest first: the latest checkpoint is the first row, and `list` pages without sorting.
 */
export function newestFirstKey(checkpointId: string): string {
  let out = "";
  for (const ch of checkpointId) {
    const digit = Number.parseInt(ch, 16);
    out += Number.isNaN(digit) ? ch : (15 - digit).toString(16);
  }
  return out;
}

/** A serializer's output, stored as text: UTF-8 JSON as is, other bytes as base64. */
export interface StoredTyped {
  readonly t: string;
  readonly s?: string;
  readonly b?: string;
}

const utf8 = new TextDecoder();

export function encodeTyped([type, bytes]: [string, Uint8Array]): StoredTyped {
  return type === "json"
    ? { t: type, s: utf8.decode(bytes) }
    : { t: type, b: Buffer.from(bytes).toString("base64") };
}

export function decodeTyped(stored: StoredTyped): [string, Uint8Array | string] {
  return [stored.t, stored.s ?? new Uint8Array(Buffer.from(stored.b ?? "", "base64"))];
}

/** A checkpoint row: the checkpoint without channel values (they live in blobs), its metadata, its parent. */
export interface CheckpointRow {
  readonly id: string;
  readonly parentId?: string;
  readonly checkpoint: StoredTyped;
  readonly metadata: StoredTyped;
}

/** A pending write row; `idx` is the position in the task's writes or the special channel's index. */
export interface WriteRow {
  readonly taskId: string;
  readonly idx: number;
  readonly channel: string;
  readonly taskPath: string;
  readonly value: StoredTyped;
}

export function writeKey(taskId: string, idx: number): string {
  return JSON.stringify([taskId, idx]);
}

export function parseRow<T>(entry: Pick<KvEntry, "value">): T {
  return JSON.parse(entry.value) as T;
}
