import type { Engram } from "@engram/core";
import { batchBySession, type JsonlLine } from "./read-jsonl.js";

export interface IngestJsonlResult {
  readonly userId: string;
  readonly memories: number;
  /** Memories stored without a vector yet (embedding failed and was queued). */
  readonly pending: number;
}

/**
 * Adds validated lines in batches (consecutive lines of one session per add() call). Each add() is atomic;
 * if a later batch fails, the batches already written are removed again so the file is all-or-nothing.
 */
export async function ingestJsonl(
  engram: Engram,
  userId: string,
  lines: readonly JsonlLine[],
  onProgress: (done: number, total: number) => void,
): Promise<IngestJsonlResult> {
  const written: string[] = [];
  let pending = 0;
  try {
    for (const batch of batchBySession(lines)) {
      const session = batch[0]?.session;
      const result = await engram.add({
        userId,
        ...(session ? { sessionId: session } : {}),
        messages: batch.map(({ role, content, name, at, metadata }) => ({
          role,
          content,
          ...(name ? { name } : {}),
          ...(at ? { at } : {}),
          ...(metadata ? { metadata } : {}),
        })),
      });
      written.push(...result.ids);
      if (result.status === "pending") pending += result.ids.length;
      onProgress(written.length, lines.length);
    }
  } catch (error) {
    if (written.length > 0) await engram.storage.write({ userId }, { deleteIds: written });
    throw error;
  }
  return { userId, memories: written.length, pending };
}
