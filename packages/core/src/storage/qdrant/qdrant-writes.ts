import { randomUUID } from "node:crypto";
import { cubeKey, fullTextBody, passageCount, type Scope, type StoredMemory } from "../../model/index.js";
import type { WriteBatch } from "../storage-port.js";
import { anyOf, isEmpty, match, type QFilter, scopeCondition } from "./filter.js";
import { edgePayload, filterPayload, memoryPayload, versionPayload } from "./payload.js";
import { pointIds } from "./point-id.js";
import type { NewPoint, Operation } from "./points.js";
import { jobPayload } from "./qdrant-queue.js";
import { documentVector } from "./text-vector.js";
import {
  assertKeysFree,
  type Existing,
  kvPoints,
  newJobs,
  readExisting,
  type WriteContext,
} from "./write-checks.js";

export type { WriteContext } from "./write-checks.js";

/**
 * Applies a batch: every check first (ownership, keys, job dedupe), then one batched request per
 * collection. Qdrant has no transaction across requests, so a failure after the checks can leave part of a
 * batch applied; every write is an idempotent upsert or delete keyed by UUIDv5, so resending the batch
 * converges to the state it describes. Unguarded records' vectors are written before the records, so a
 * batch cut off between the two is resent whole rather than taken as stored without its vectors.
 *
 * A conditional batch (`expect`) whose records are not stored as given writes nothing (`refused`). Otherwise
 * the points it expected may only be stored over or deleted while they keep the `rev` the check read: they
 * are upserted with an `update_filter` (deleted by a filter on it), so a write another process made since
 * the check is never overwritten or deleted, and read back to see which were stored. `conflicts` names
 * those that were not (their vectors, history and edges are left alone; the rest of the batch is stored,
 * as Qdrant cannot take it back).
 */
export async function writeBatch(
  ctx: WriteContext,
  scope: Scope,
  batch: WriteBatch,
  now: string,
): Promise<{ conflicts: string[]; refused: boolean }> {
  const existing = await readExisting(ctx, scope, batch);
  if (existing.conflicts.length) return { conflicts: existing.conflicts, refused: true };
  const revs = existing.revs;
  await assertKeysFree(ctx, scope, batch);
  const jobs = await newJobs(ctx, scope, batch.jobs ?? []);
  const kv = await kvPoints(ctx, scope, batch, now);
  const names = ctx.collections.names;
  const plainDeletes = existing.removed.filter((id) => !revs.has(id));
  const guardedDeletes = existing.removed.filter((id) => revs.has(id));
  const points = recordPoints(ctx, batch.upsert ?? [], existing);
  // Below 1.16 the server would ignore `update_filter`: the upsert is then checked but not guarded.
  const isGuarded = (p: NewPoint) => ctx.collections.hasUpdateFilter && revs.has(memoryIdOf(p));
  const guarded = points.filter(isGuarded);
  const guardedIds = new Set(guarded.map(memoryIdOf));
  const [later, first] = partition(batch.upsert ?? [], (u) => guardedIds.has(u.record.id));
  // An unguarded record's vector goes first: a batch cut off after it is resent whole (the record is not
  // there yet), where a record stored without its vector would be taken as stored and keep no vector.
  await writeVectors(ctx, first, []);
  await ctx.points.apply(names.memories, [
    ...(plainDeletes.length ? [{ delete: { points: plainDeletes.map(pointIds.memory) } }] : []),
    ...(guardedDeletes.length ? [{ delete: { filter: unchanged(guardedDeletes, revs) } }] : []),
    ...upsertOp(points.filter((p) => !isGuarded(p))),
    ...(guarded.length
      ? [{ upsert: { points: guarded, update_filter: unchanged(guarded.map(memoryIdOf), revs) } }]
      : []),
  ]);
  const lost = await lostWrites(ctx, guarded, guardedDeletes);
  const removed = existing.removed.filter((id) => !lost.includes(id));
  await writeVectors(
    ctx,
    later.filter((u) => !lost.includes(u.record.id)),
    removed.map(pointIds.memory),
  );
  await writeLinks(ctx, scope, lost.length ? withoutLinksOf(batch, lost) : batch, removed);
  const kvDeletes = (batch.kvDelete ?? []).map((e) => pointIds.kv(scope.userId, cubeKey(e.namespace), e.key));
  await ctx.points.apply(names.kv, [
    ...upsertOp(kv),
    ...(kvDeletes.length ? [{ delete: { points: kvDeletes } }] : []),
  ]);
  const jobPoints = jobs.map((j) => ({
    id: pointIds.job(j.id),
    vector: {},
    payload: jobPayload(scope.userId, j, now),
  }));
  await ctx.points.apply(names.jobs, upsertOp(jobPoints));
  return { conflicts: lost, refused: false };
}

const memoryIdOf = (p: NewPoint) => p.payload.memory_id as string;

function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}

/**
 * The batch without the history rows and edges of records whose conditional write lost: a history row's
 * point id is its memory, version and event, so the lost write's row would replace the one the winning
 * writer stored for the same version.
 */
function withoutLinksOf(batch: WriteBatch, lost: readonly string[]): WriteBatch {
  const kept = (id: string) => !lost.includes(id);
  return {
    ...batch,
    history: batch.history?.filter((v) => kept(v.memoryId)),
    edges: batch.edges?.filter((e) => kept(e.from) && kept(e.to)),
  };
}

/** Selects each memory's point only while it keeps the `rev` the expectation check saw. */
function unchanged(memoryIds: readonly string[], revs: ReadonlyMap<string, string | null>): QFilter {
  return {
    should: memoryIds.map((id) => {
      const rev = revs.get(id) ?? null;
      return { must: [{ has_id: [pointIds.memory(id)] }, rev === null ? isEmpty("rev") : match("rev", rev)] };
    }),
  };
}

/**
 * Memory ids of the guarded writes that did not happen, read back in one request: an upserted point that
 * does not hold the `rev` this write gave it, a deleted point that is still there.
 */
async function lostWrites(
  ctx: WriteContext,
  upserted: readonly NewPoint[],
  deleted: readonly string[],
): Promise<string[]> {
  const ids = [...upserted.map((p) => p.id), ...deleted.map(pointIds.memory)];
  if (ids.length === 0) return [];
  const found = await ctx.points.retrieve(ctx.collections.names.memories, ids, ["rev"]);
  const revs = new Map(found.map((p) => [p.id, p.payload.rev]));
  return [
    ...upserted.filter((p) => revs.get(p.id) !== p.payload.rev).map(memoryIdOf),
    ...deleted.filter((id) => revs.has(pointIds.memory(id))),
  ];
}

function upsertOp(points: NewPoint[]): Operation[] {
  return points.length ? [{ upsert: { points } }] : [];
}

/** Records with their BM25 sparse vector; a record keeps the write sequence it was first stored with. */
function recordPoints(ctx: WriteContext, upserts: readonly StoredMemory[], existing: Existing): NewPoint[] {
  return upserts.map(({ record }) => {
    const text = documentVector(
      fullTextBody({ ...record, passages: passageCount(record) }),
      ctx.textAvgLength,
    );
    const seq = existing.seq.get(record.id) ?? ctx.nextSeq();
    return {
      id: pointIds.memory(record.id),
      vector: text.indices.length ? { bm25: text } : {},
      payload: memoryPayload(record, seq, randomUUID()),
    };
  });
}

/** History and edges: those of removed memories go first, then the batch's new ones. */
async function writeLinks(
  ctx: WriteContext,
  scope: Scope,
  batch: WriteBatch,
  removed: string[],
): Promise<void> {
  const owned = (...conditions: QFilter["must"] & object): Operation[] =>
    removed.length ? [{ delete: { filter: { must: [scopeCondition(scope), ...conditions] } } }] : [];
  const history = (batch.history ?? []).map((v) => ({
    id: pointIds.history(v.userId, v.memoryId, v.version, v.event),
    vector: {},
    payload: versionPayload(v),
  }));
  await ctx.points.apply(ctx.collections.names.history, [
    ...owned(anyOf("memory_id", removed)),
    ...upsertOp(history),
  ]);
  const edges = (batch.edges ?? []).map((e) => ({
    id: pointIds.edge(e.userId, e.from, e.to, e.type),
    vector: {},
    payload: edgePayload(e),
  }));
  const touching = { should: [anyOf("src", removed), anyOf("dst", removed)] };
  await ctx.points.apply(ctx.collections.names.edges, [...owned(touching), ...upsertOp(edges)]);
}

/**
 * Dense vectors go to the collection of their dimension; a memory's point leaves every other vector
 * collection (its vector was removed, or its embedding changed size). Removing memories first lists the
 * server's collections again, so their vectors also leave one another process created since. A record
 * upserted without a vector keeps the vector point it has, which takes the record's new filter fields.
 */
async function writeVectors(
  ctx: WriteContext,
  all: readonly StoredMemory[],
  removedIds: string[],
): Promise<void> {
  if (removedIds.length) await ctx.collections.refresh();
  const [kept, upserts] = partition(all, (u) => u.vector === undefined);
  // One filtered payload update per record: it changes the point where it exists and creates none.
  const refreshed: Operation[] = kept.map(({ record }) => ({
    set_payload: {
      payload: filterPayload(record),
      filter: { must: [{ has_id: [pointIds.memory(record.id)] }] },
    },
  }));
  const byDimension = new Map<number, NewPoint[]>();
  for (const { record, vector } of upserts) {
    if (!vector) continue;
    const list = byDimension.get(vector.length) ?? [];
    list.push({
      id: pointIds.memory(record.id),
      vector: { dense: Array.from(vector) },
      payload: filterPayload(record),
    });
    byDimension.set(vector.length, list);
  }
  const targets = new Map<string, NewPoint[]>();
  for (const [dimensions, points] of byDimension)
    targets.set(await ctx.collections.vectors(dimensions), points);
  for (const name of ctx.collections.vectorCollections()) {
    const points = targets.get(name) ?? [];
    const kept = new Set(points.map((p) => p.id));
    const gone = [
      ...removedIds,
      ...upserts.map((s) => pointIds.memory(s.record.id)).filter((id) => !kept.has(id)),
    ];
    const ops: Operation[] = [...refreshed];
    if (gone.length) ops.push({ delete: { points: gone } });
    if (points.length) ops.push({ upsert: { points } });
    await ctx.points.apply(name, ops);
  }
}
