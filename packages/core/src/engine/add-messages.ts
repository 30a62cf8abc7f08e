import {
  contextLine,
  type MemoryRecord,
  type MemoryStatus,
  newRecord,
  parseInput,
  type Scope,
  userCube,
  versionOf,
  withPassages,
} from "../model/index.js";
import { resolveTimeMentions } from "../retrieval/index.js";
import type { EngineContext } from "../runtime/index.js";
import { embedJob, embedRecords, unembedded } from "../runtime/index.js";
import type { NewJob } from "../storage/index.js";
import { tiersJob } from "../updating/index.js";
import { assignMessageIds, storedAlready } from "./message-ids.js";
import { type AddInput, addInputSchema } from "./schemas.js";

export interface AddResult {
  /** Ids of the stored messages, in input order. */
  readonly ids: string[];
  /** `ready`: fully indexed. `pending`: stored and full-text searchable; enrichment queued (see flush()). */
  readonly status: MemoryStatus;
  readonly memories: MemoryRecord[];
  /** How many messages were new; the others were stored already (a repeated add) and left as they were. */
  readonly added: number;
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
  return last ? contextLine(last) : null;
}

/**
 * The turn's relative dates resolved against the time it was said (`metadata.times`), so "last Saturday"
 * still means the right day when it is read a year later. Metadata the caller set under `times` wins.
 */
export function withTimes(
  metadata: Readonly<Record<string, unknown>>,
  text: string,
  at: string,
): Record<string, unknown> {
  if ("times" in metadata) return metadata;
  const times = resolveTimeMentions(text, new Date(at));
  return times.length ? { ...metadata, times } : metadata;
}

/**
 * The turn with the facts the offline rules read from it kept to be indexed with it (the `factKeys`
 * option); as it was without the option, or when its metadata already holds them.
 */
export async function withFactKeys(ctx: EngineContext, turn: MemoryRecord): Promise<MemoryRecord> {
  if (!ctx.factKeys || !ctx.rules || turn.role === null || "factKeys" in turn.metadata) return turn;
  const keys = [...new Set((await ctx.rules.persona([turn], [])).map((f) => f.text))];
  return keys.length ? { ...turn, metadata: { ...turn.metadata, factKeys: keys } } : turn;
}

/**
 * Stores raw dialogue turns: one `message` memory each, searchable as soon as this returns. The call is
 * one write: every new message with its history and queued work, or nothing. Messages already stored
 * under their id (see assignMessageIds) are left as they were, so a retried call stores nothing twice.
 */
export async function addMessages(ctx: EngineContext, raw: AddInput): Promise<AddResult> {
  const input = parseInput(addInputSchema, raw, "add");
  const scope: Scope = { userId: input.userId };
  const now = ctx.clock().toISOString();
  const cube = input.cube ?? userCube(input.userId);
  const ids = assignMessageIds(ctx, input, cube);
  // Each session's previous line, which becomes the context of its next message.
  const contexts = new Map<string | undefined, string | null>();
  const records: MemoryRecord[] = [];
  for (const [i, m] of input.messages.entries()) {
    const sessionId = m.sessionId ?? input.sessionId;
    if (!contexts.has(sessionId)) contexts.set(sessionId, await previousLine(ctx, scope, sessionId));
    const record = newRecord(
      {
        id: ids[i] as string,
        userId: input.userId,
        cube,
        agentId: input.agentId ?? null,
        sessionId: sessionId ?? null,
        kind: "message",
        tier: "short",
        role: m.role,
        name: m.name ?? null,
        text: m.content,
        context: contexts.get(sessionId) ?? null,
        metadata: withTimes(m.metadata ?? {}, m.content, m.at ?? input.at ?? now),
        validFrom: m.at ?? input.at ?? now,
      },
      now,
    );
    if (ctx.contextWindow) contexts.set(sessionId, contextLine(record));
    records.push(record);
  }
  const existing = await storedAlready(ctx.storage, scope, ids);
  // A long turn is searched by its passages, stored with it (and embedded in its place). Only turns not
  // stored yet are read for fact keys.
  const split = await Promise.all(
    records.filter((r) => !existing.has(r.id)).map(async (r) => withPassages(await withFactKeys(ctx, r))),
  );
  const fresh = split.map((s) => s.turn);
  const passages = split.flatMap((s) => s.passages);
  // `later`: the raw turns are written now and the embedding runs as a durable job (a crash loses nothing).
  const deferred = input.embed === "later" && ctx.embedder !== null;
  const { stored, error } = deferred
    ? { stored: unembedded([...fresh, ...passages]), error: null }
    : await embedRecords(ctx, [...passages, ...fresh]);
  const history = fresh.map((r) => versionOf(r, "create", now));
  const freshIds = fresh.map((r) => r.id);
  const embedIds = [...passages.map((p) => p.id), ...freshIds];
  const jobs: NewJob[] =
    (error || deferred) && freshIds.length ? [embedJob.create(ctx, { ids: embedIds }, now)] : [];
  if (ctx.tiers && fresh.length > 0) jobs.push(tiersJob.create(ctx, {}, now));
  const { inserted } = fresh.length
    ? await ctx.storage.write(scope, { insert: stored, history, jobs })
    : { inserted: [] };
  // Another process may have stored some of them between the check above and the write: read those back.
  const ours = new Set(inserted);
  const raced = freshIds.filter((id) => !ours.has(id));
  for (const [id, record] of await storedAlready(ctx.storage, scope, raced)) existing.set(id, record);
  const written = new Map(stored.map((s) => [s.record.id, s.record]));
  const memories = ids.map((id) => (existing.get(id) ?? written.get(id)) as MemoryRecord);
  // Pending while enrichment (embedding after a model failure, tier processing) is queued.
  const pending = jobs.length > 0 || memories.some((m) => m.status === "pending");
  const added = freshIds.filter((id) => ours.has(id)).length;
  return { ids, status: pending ? "pending" : "ready", memories, added };
}
