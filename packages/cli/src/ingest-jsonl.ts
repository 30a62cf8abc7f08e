import type { Engram } from "@engram/core";
import { batchBySession, type JsonlLine } from "./read-jsonl.js";

export interface IngestJsonlResult {
  readonly userId: string;
  readonly memories: number;
  /** Jobs still queued after ingest (e.g. an embedding or tier job waiting to retry after a model failure). */
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
      onProgress(written.length, lines.length);
      // Tier work after each batch, as a live agent's background worker would do it.
      await engram.flush();
    }
  } catch (error) {
    if (written.length > 0) await engram.storage.write({ userId }, { deleteIds: written });
    throw error;
  }
  // Work still queued after processing: embeddings or tier jobs waiting for a retry after a model failure.
  const pending = (await engram.storage.jobs({ userId }, "queued")).length;
  return { userId, memories: written.length, pending };
}
