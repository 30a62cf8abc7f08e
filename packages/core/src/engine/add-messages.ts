import {
  type MemoryRecord,
  type MemoryStatus,
  type MemoryVersion,
  newRecord,
  ownLine,
  parseInput,
  type Scope,
  userCube,
} from "../model/index.js";
import type { NewJob } from "../storage/index.js";
import { embedJob, embedRecords } from "../updating/embed-records.js";
import type { EngineContext } from "../updating/engine-context.js";
import { type AddInput, addInputSchema } from "./schemas.js";

export interface AddResult {
  /** Ids of the stored messages, in input order. */
  readonly ids: string[];
  /** `ready`: fully indexed. `pending`: stored and full-text searchable; enrichment queued (see flush()). */
  readonly status: MemoryStatus;
  readonly memories: MemoryRecord[];
}

/** The line of the latest message in the session, which becomes the first new message's context. */
async function previousLine(
  ctx: EngineContext,
  scope: Scope,
  sessionId: string | undefined,
): Promise<string | null> {
  if (!ctx.contextWindow) return null;
  const [last] = await ctx.storage.scan(scope, {
    filter: { kinds: ["message"], sessionId: sessionId ?? null },
    order: "desc",
    limit: 1,
  });
  return last ? ownLine(last) : null;
}

/** Stores raw dialogue turns: one `message` memory each, searchable as soon as this returns. */
export async function addMessages(ctx: EngineContext, raw: AddInput): Promise<AddResult> {
  const input = parseInput(addInputSchema, raw, "add");
  const scope: Scope = { userId: input.userId };
  const now = ctx.clock().toISOString();
  let context = await previousLine(ctx, scope, input.sessionId);
  const records: MemoryRecord[] = input.messages.map((m) => {
    const record = newRecord(
      {
        id: ctx.ids(),
        userId: input.userId,
        cube: input.cube ?? userCube(input.userId),
        agentId: input.agentId ?? null,
        sessionId: input.sessionId ?? null,
        kind: "message",
        tier: "short",
        role: m.role,
        name: m.name ?? null,
        text: m.content,
        context,
        metadata: m.metadata ?? {},
        validFrom: m.at ?? input.at ?? now,
      },
      now,
    );
    if (ctx.contextWindow) context = ownLine(record);
    return record;
  });
  // `later`: the raw turns are written now and the embedding runs as a durable job (a crash loses nothing).
  const deferred = input.embed === "later" && ctx.embedder !== null;
  const { stored, error } = deferred
    ? {
        stored: records.map((r) => ({ record: { ...r, status: "pending" as const }, vector: null })),
        error: null,
      }
    : await embedRecords(ctx, records);
  const history: MemoryVersion[] = records.map((r) => ({
    memoryId: r.id,
    userId: r.userId,
    version: 1,
    event: "create",
    text: r.text,
    metadata: r.metadata,
    at: now,
  }));
  const ids = records.map((r) => r.id);
  const jobs: NewJob[] = error || deferred ? [embedJob(ctx, ids, now)] : [];
  if (ctx.tiers)
    jobs.push({ id: `job_${ctx.ids()}`, type: "tiers", payload: {}, dedupeKey: "tiers", runAt: now });
  await ctx.storage.write(scope, { upsert: stored, history, jobs });
  // Pending while enrichment (embedding after a model failure, tier processing) is queued.
  const status = error || deferred || ctx.tiers ? "pending" : "ready";
  return { ids, status, memories: stored.map((s) => s.record) };
}
