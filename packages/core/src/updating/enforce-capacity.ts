import type { MemoryRecord, MemoryVersion, Scope, StoredMemory } from "../model/index.js";
import { readFact, versionOf } from "../model/index.js";
import type { EngineContext } from "../runtime/index.js";
import { untilStored } from "../runtime/index.js";

/**
 * Keeps current user knowledge and assistant knowledge within `knowledgeCapacity` each. The oldest,
 * least confident facts beyond it expire (expiredAt set, a history row written) rather than vanish:
 * MemoryOS's FIFO dropped them silently. The write is conditional on the facts as read: when another
 * process changed one meanwhile (its own capacity pass, a merge), the pass is worked out again.
 */
export function enforceKnowledgeCapacity(ctx: EngineContext, scope: Scope): Promise<string[]> {
  return untilStored("knowledge capacity", () => enforceOnce(ctx, scope));
}

async function enforceOnce(ctx: EngineContext, scope: Scope): Promise<string[] | null> {
  const now = ctx.clock().toISOString();
  const upsert: StoredMemory[] = [];
  const history: MemoryVersion[] = [];
  const read: MemoryRecord[] = [];
  for (const role of ["user", "assistant"] as const) {
    const facts = await ctx.storage.scan(scope, {
      filter: { kinds: ["fact"], roles: [role], current: true },
      order: "asc",
    });
    const excess = facts.length - ctx.policy.knowledgeCapacity;
    if (excess <= 0) continue;
    const confidence = (f: (typeof facts)[number]) => readFact(f).confidence;
    // Least confident first; among equals, the oldest (scan order is oldest first and sort is stable).
    const out = [...facts].sort((a, b) => confidence(a) - confidence(b)).slice(0, excess);
    read.push(...out);
    for (const f of out) {
      const record = { ...f, expiredAt: now, version: f.version + 1, updatedAt: now };
      upsert.push({ record });
      history.push(versionOf(record, "supersede", now, { ...f.metadata, reason: "knowledge capacity" }));
    }
  }
  if (upsert.length && (await ctx.storage.write(scope, { upsert, history, expect: read })).conflicts.length)
    return null;
  return upsert.map((s) => s.record.id);
}
