import { EngramError } from "../errors/index.js";
import { type MemoryRecord, type StoredMemory, searchText } from "../model/index.js";
import type { EngineContext } from "./engine-context.js";

export interface EmbedOutcome {
  readonly stored: StoredMemory[];
  /** The model error when embedding failed; the records are then stored without vectors, status pending. */
  readonly error: EngramError | null;
}

/**
 * Embeds records' searchable text. A failing model never loses the records: they are returned without
 * vectors and marked pending, so the caller stores them (full-text searchable) and queues the embedding.
 */
export async function embedRecords(
  ctx: EngineContext,
  records: readonly MemoryRecord[],
): Promise<EmbedOutcome> {
  if (!ctx.embedder || records.length === 0) {
    return { stored: records.map((record) => ({ record, vector: null })), error: null };
  }
  try {
    const vectors = await ctx.embedder.embed(records.map(searchText));
    return { stored: records.map((record, i) => ({ record, vector: vectors[i] ?? null })), error: null };
  } catch (cause) {
    if (!EngramError.isInstance(cause) || cause.code !== "MODEL") throw cause;
    const stored = records.map((record) => ({
      record: { ...record, status: "pending" as const },
      vector: null,
    }));
    return { stored, error: cause };
  }
}

/** The queued job that retries embedding for records stored without vectors. */
export function embedJob(ctx: EngineContext, ids: readonly string[], now: string) {
  return { id: `job_${ctx.ids()}`, type: "embed", payload: { ids: [...ids] }, runAt: now };
}
