import { EngramError } from "../errors/index.js";
import {
  embeddingText,
  type MemoryRecord,
  normalizedMean,
  passageCount,
  passageEmbedded,
  passageIds,
  passageOf,
  type StoredMemory,
} from "../model/index.js";
import type { EngineContext } from "./engine-context.js";

export interface EmbedOutcome {
  readonly stored: StoredMemory[];
  /** The model error when embedding failed; the records are then stored without vectors, status pending. */
  readonly error: EngramError | null;
}

/** Whether a record gets a vector of its own: all but the passages of a long turn left unembedded. */
function isEmbedded(record: MemoryRecord, passages: number): boolean {
  const of = passageOf(record);
  return of === null || passageEmbedded(of.index, of.of, passages);
}

/**
 * Embeds records' text (`embeddingText`: own line, then context, cut to the policy's characters). A turn
 * searched by its passages is not embedded itself: its vector is the mean of its embedded passages'
 * vectors, from this call's records or from storage; with none embedded (the default) it has no vector
 * and is found through its passages' full text.
 * A failing model never loses the records: they are returned without vectors and marked pending, so the
 * caller stores them (full-text searchable) and queues the embedding; the failure is reported to
 * `ctx.events` unless `report` is false (the embed job, whose retry is reported instead).
 */
export async function embedRecords(
  ctx: EngineContext,
  records: readonly MemoryRecord[],
  { report = true }: { readonly report?: boolean } = {},
): Promise<EmbedOutcome> {
  if (!ctx.embedder || records.length === 0) {
    return { stored: records.map((record) => ({ record, vector: null })), error: null };
  }
  try {
    const { maxChars, passages } = ctx.embedding;
    const direct = records.filter((r) => passageCount(r) === 0 && isEmbedded(r, passages));
    const vectors = direct.length
      ? await ctx.embedder.embed(direct.map((r) => embeddingText(r, maxChars)))
      : [];
    const byId = new Map(direct.map((r, i) => [r.id, vectors[i] ?? null]));
    for (const turn of records.filter((r) => passageCount(r) > 0)) {
      const count = passageCount(turn);
      const ids = passageIds(turn).filter((_, i) => passageEmbedded(i, count, passages));
      const missing = ids.filter((id) => !byId.get(id));
      const stored = missing.length
        ? await ctx.storage.getVectors({ userId: turn.userId }, missing)
        : new Map();
      const parts = ids.flatMap((id) => {
        const v = byId.get(id) ?? stored.get(id);
        return v ? [v] : [];
      });
      byId.set(turn.id, parts.length === ids.length ? normalizedMean(parts) : null);
    }
    return {
      stored: records.map((record) => ({ record, vector: byId.get(record.id) ?? null })),
      error: null,
    };
  } catch (cause) {
    if (!EngramError.isInstance(cause) || cause.code !== "MODEL") throw cause;
    if (report) {
      ctx.events?.({
        type: "embedder.unavailable",
        at: ctx.clock().toISOString(),
        fallback: "pending",
        error: cause.message,
      });
    }
    return { stored: unembedded(records), error: cause };
  }
}

/** Records stored without vectors, marked pending: their embedding is queued (or left to the embed job). */
export function unembedded(records: readonly MemoryRecord[]): StoredMemory[] {
  return records.map((record) => ({ record: { ...record, status: "pending" }, vector: null }));
}
