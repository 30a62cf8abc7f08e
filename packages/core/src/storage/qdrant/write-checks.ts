import { cubeKey, type MemoryRecord, type Scope } from "../../model/index.js";
import { idTaken, keySlot, keyTaken } from "../backend-rules.js";
import { expectationConflicts } from "../expected-records.js";
import type { NewJob, WriteBatch } from "../storage-port.js";
import type { Collections } from "./collections.js";
import { anyOf, isEmpty, match, type QFilter, scopeCondition } from "./filter.js";
import { kvPayload, payloadToRecord } from "./payload.js";
import { pointIds } from "./point-id.js";
import type { NewPoint, Points } from "./points.js";

export interface WriteContext {
  readonly points: Points;
  readonly collections: Collections;
  /** Next write sequence number (orders records stored at the same instant). */
  readonly nextSeq: () => number;
  readonly textAvgLength: number;
}

export interface Existing {
  /** Memory ids of the scope's user found in the store, with their write sequence. */
  readonly seq: Map<string, number>;
  /** Ids of `deleteIds` that the scope's user holds. */
  readonly removed: string[];
  /** The batch's `expect` records that the store no longer holds as given (changed, removed, another user's). */
  readonly conflicts: string[];
  /** The `rev` each expected point of the user has now (null for a point written before revs existed). */
  readonly revs: Map<string, string | null>;
}

/**
 * Reads what the batch touches, refusing ids another user holds: before anything is written. The points of
 * a conditional batch's `expect` records are read in the same request, whole, to compare them.
 */
export async function readExisting(ctx: WriteContext, scope: Scope, batch: WriteBatch): Promise<Existing> {
  const upsertIds = (batch.upsert ?? []).map((s) => s.record.id);
  const expected = batch.expect ?? [];
  const expectedIds = new Set(expected.map((r) => r.id));
  const ids = [...upsertIds, ...(batch.deleteIds ?? []), ...expectedIds];
  const found = ids.length
    ? await ctx.points.retrieve(
        ctx.collections.names.memories,
        ids.map(pointIds.memory),
        expected.length ? true : ["memory_id", "user_id", "seq"],
      )
    : [];
  const seq = new Map<string, number>();
  const stored = new Map<string, MemoryRecord>();
  const revs = new Map<string, string | null>();
  for (const p of found) {
    const id = p.payload.memory_id as string;
    if (p.payload.user_id === scope.userId) {
      seq.set(id, p.payload.seq as number);
      if (expectedIds.has(id)) {
        stored.set(id, payloadToRecord(p.payload));
        revs.set(id, (p.payload.rev as string | undefined) ?? null);
      }
    } else if (upsertIds.includes(id)) throw idTaken(id);
  }
  return {
    seq,
    removed: (batch.deleteIds ?? []).filter((id) => seq.has(id)),
    conflicts: expectationConflicts(expected, stored),
    revs,
  };
}

/**
 * The batch with its inserts resolved: new ids join `upsert`; ids the user already holds are dropped
 * with the batch's history rows for them; another user's id is refused.
 */
export async function resolveInserts(
  ctx: WriteContext,
  scope: Scope,
  batch: WriteBatch,
): Promise<{ batch: WriteBatch; inserted: string[] }> {
  const inserts = batch.insert ?? [];
  if (inserts.length === 0) return { batch, inserted: [] };
  const found = await ctx.points.retrieve(
    ctx.collections.names.memories,
    inserts.map((s) => pointIds.memory(s.record.id)),
    ["memory_id", "user_id"],
  );
  const held = new Set<string>();
  for (const p of found) {
    const id = p.payload.memory_id as string;
    if (p.payload.user_id !== scope.userId) throw idTaken(id);
    held.add(id);
  }
  const ids = new Set<string>();
  const fresh = inserts.filter(({ record }) => {
    if (held.has(record.id) || ids.has(record.id)) return false;
    ids.add(record.id);
    return true;
  });
  const { insert: _resolved, ...rest } = batch;
  const resolved = {
    ...rest,
    upsert: [...(batch.upsert ?? []), ...fresh],
    history: (batch.history ?? []).filter((v) => !held.has(v.memoryId)),
  };
  return { batch: resolved, inserted: fresh.map(({ record }) => record.id) };
}

/**
 * A key is unique per user, cube and kind among current memories. Checked before writing: Qdrant has no
 * unique constraints, so two writers racing on one key could both pass (one writer per user is assumed).
 */
export async function assertKeysFree(ctx: WriteContext, scope: Scope, batch: WriteBatch): Promise<void> {
  const keyed = (batch.upsert ?? []).filter((s) => s.record.key !== null && s.record.expiredAt === null);
  if (keyed.length === 0) return;
  const seen = new Set<string>();
  for (const s of keyed) {
    if (seen.has(keySlot(s.record))) throw keyTaken(s.record);
    seen.add(keySlot(s.record));
  }
  const touched = [...(batch.upsert ?? []).map((s) => s.record.id), ...(batch.deleteIds ?? [])];
  const filter: QFilter = {
    must: [
      scopeCondition(scope),
      anyOf("key", [...new Set(keyed.map((s) => s.record.key as string))]),
      isEmpty("expired_ms"),
    ],
    must_not: [{ has_id: touched.map(pointIds.memory) }],
  };
  const holders = await ctx.points.scroll(ctx.collections.names.memories, filter, {
    include: ["cube", "kind", "key"],
  });
  const held = new Set(holders.map((p) => JSON.stringify([p.payload.cube, p.payload.kind, p.payload.key])));
  const clash = keyed.find((s) => held.has(keySlot(s.record)));
  if (clash) throw keyTaken(clash.record);
}

/** New jobs, minus ids already stored and dedupe keys already queued for the user (first one wins). */
export async function newJobs(ctx: WriteContext, scope: Scope, jobs: readonly NewJob[]): Promise<NewJob[]> {
  if (jobs.length === 0) return [];
  const name = ctx.collections.names.jobs;
  const stored = await ctx.points.retrieve(
    name,
    jobs.map((j) => pointIds.job(j.id)),
    ["job_id"],
  );
  const storedIds = new Set(stored.map((p) => p.payload.job_id as string));
  const keys = [...new Set(jobs.flatMap((j) => (j.dedupeKey ? [j.dedupeKey] : [])))];
  const queued = keys.length
    ? await ctx.points.scroll(
        name,
        { must: [scopeCondition(scope), match("status", "queued"), anyOf("dedupe_key", keys)] },
        { include: ["dedupe_key"] },
      )
    : [];
  const taken = new Set(queued.map((p) => p.payload.dedupe_key as string));
  const out: NewJob[] = [];
  for (const job of jobs) {
    if (storedIds.has(job.id) || (job.dedupeKey && taken.has(job.dedupeKey))) continue;
    storedIds.add(job.id);
    if (job.dedupeKey) taken.add(job.dedupeKey);
    out.push(job);
  }
  return out;
}

/** kv puts with the creation time of entries that already exist. */
export async function kvPoints(
  ctx: WriteContext,
  scope: Scope,
  batch: WriteBatch,
  now: string,
): Promise<NewPoint[]> {
  const puts = batch.kvPut ?? [];
  if (puts.length === 0) return [];
  const ids = puts.map((e) => pointIds.kv(scope.userId, cubeKey(e.namespace), e.key));
  const found = await ctx.points.byIds(
    ctx.collections.names.kv,
    ids,
    { must: [scopeCondition(scope)] },
    { include: ["created_at"] },
  );
  const created = new Map(found.map((p) => [p.id, p.payload.created_at as string]));
  return puts.map((e, i) => {
    const id = ids[i] as string;
    const createdAt = e.createdAt ?? created.get(id) ?? now;
    return { id, vector: {}, payload: kvPayload(scope.userId, e, createdAt, e.updatedAt ?? now) };
  });
}
