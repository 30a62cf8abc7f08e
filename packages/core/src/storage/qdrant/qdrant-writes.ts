import { cubeKey, type Scope, type StoredMemory, searchText } from "../../model/index.js";
import type { WriteBatch } from "../storage-port.js";
import { anyOf, type QFilter, scopeCondition } from "./filter.js";
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
 * converges to the state it describes.
 */
export async function writeBatch(
  ctx: WriteContext,
  scope: Scope,
  batch: WriteBatch,
  now: string,
): Promise<void> {
  const existing = await readExisting(ctx, scope, batch);
  await assertKeysFree(ctx, scope, batch);
  const jobs = await newJobs(ctx, scope, batch.jobs ?? []);
  const kv = await kvPoints(ctx, scope, batch, now);
  const names = ctx.collections.names;
  const removedIds = existing.removed.map(pointIds.memory);
  await ctx.points.apply(names.memories, [
    ...(removedIds.length ? [{ delete: { points: removedIds } }] : []),
    ...upsertOp(recordPoints(ctx, batch.upsert ?? [], existing)),
  ]);
  await writeVectors(ctx, batch.upsert ?? [], removedIds);
  await writeLinks(ctx, scope, batch, existing.removed);
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
}

function upsertOp(points: NewPoint[]): Operation[] {
  return points.length ? [{ upsert: { points } }] : [];
}

/** Records with their BM25 sparse vector; a record keeps the write sequence it was first stored with. */
function recordPoints(ctx: WriteContext, upserts: readonly StoredMemory[], existing: Existing): NewPoint[] {
  return upserts.map(({ record }) => {
    const text = documentVector(searchText(record), ctx.textAvgLength);
    const seq = existing.seq.get(record.id) ?? ctx.nextSeq();
    return {
      id: pointIds.memory(record.id),
      vector: text.indices.length ? { bm25: text } : {},
      payload: memoryPayload(record, seq),
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
 * collection (its vector was removed, or its embedding changed size).
 */
async function writeVectors(
  ctx: WriteContext,
  upserts: readonly StoredMemory[],
  removedIds: string[],
): Promise<void> {
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
    const ops: Operation[] = [];
    if (gone.length) ops.push({ delete: { points: gone } });
    if (points.length) ops.push({ upsert: { points } });
    await ctx.points.apply(name, ops);
  }
}
