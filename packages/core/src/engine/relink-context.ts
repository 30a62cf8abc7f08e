import {
  contextLine,
  isContextLineOf,
  type MemoryRecord,
  type Scope,
  type StoredMemory,
} from "../model/index.js";
import type { EngineContext } from "../runtime/index.js";
import { embedJob, embedRecords } from "../runtime/index.js";
import type { NewJob } from "../storage/index.js";

/** The message indexed with `record` as its context (the next turn of the same session), if any. */
async function follower(
  ctx: EngineContext,
  scope: Scope,
  record: MemoryRecord,
): Promise<MemoryRecord | null> {
  if (record.kind !== "message") return null;
  const candidates = await ctx.storage.scan(scope, {
    filter: {
      kinds: ["message"],
      sessionId: record.sessionId,
      ...(record.validFrom ? { from: record.validFrom } : {}),
    },
    order: "asc",
    limit: 64,
  });
  return candidates.find((c) => c.id !== record.id && isContextLineOf(c.context, record)) ?? null;
}

/**
 * When a message's text changes or it is deleted, the next turn still carries the old line as its indexed
 * context. This rewrites that context (to the new line, or on delete to the deleted turn's own context) and
 * re-embeds it, so no copy of the old text stays searchable or stored. `read` is that message as read, for
 * the write's `expect`.
 */
export async function relinkFollower(
  ctx: EngineContext,
  scope: Scope,
  old: MemoryRecord,
  replacement: MemoryRecord | null,
): Promise<{ upsert: StoredMemory[]; jobs: NewJob[]; read: MemoryRecord[] }> {
  const next = await follower(ctx, scope, old);
  if (!next) return { upsert: [], jobs: [], read: [] };
  const context = replacement ? contextLine(replacement) : old.context;
  const { stored, error } = await embedRecords(ctx, [{ ...next, context }]);
  return {
    upsert: stored,
    jobs: error ? [embedJob.create(ctx, { ids: [next.id] }, ctx.clock().toISOString())] : [],
    read: [next],
  };
}
