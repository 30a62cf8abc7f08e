import { z } from "zod";
import { ValidationError } from "../errors/index.js";
import {
  cubeSchema,
  EDGE_TYPES,
  HISTORY_EVENTS,
  idString,
  MEMORY_KINDS,
  MEMORY_STATUSES,
  type MemoryRecord,
  parseInput,
  passageOf,
  ROLES,
  type StoredMemory,
  TIERS,
  withinTextLimit,
} from "../model/index.js";
import type { EngineContext } from "../runtime/index.js";
import { type EmbedOutcome, embedJob, embedRecords, unembedded } from "../runtime/index.js";
import type { NewJob } from "../storage/index.js";
import { readEmbedderRecord } from "./recorded-embedder.js";

export const EXPORT_FORMAT = "engram.export";
export const EXPORT_VERSION = 1;

const iso = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), "expected an ISO 8601 time")
  .transform((s) => new Date(s).toISOString());
const recordSchema = z.object({
  id: idString,
  userId: idString,
  cube: cubeSchema,
  agentId: z.string().nullable(),
  sessionId: z.string().nullable(),
  kind: z.enum(MEMORY_KINDS),
  tier: z.enum(TIERS),
  role: z.enum(ROLES).nullable(),
  name: z.string().nullable(),
  text: z.string().superRefine(withinTextLimit),
  context: z.string().nullable(),
  key: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  status: z.enum(MEMORY_STATUSES),
  version: z.number().int().min(1),
  validFrom: iso.nullable(),
  validTo: iso.nullable(),
  createdAt: iso,
  updatedAt: iso,
  expiredAt: iso.nullable(),
  /** Base64 of the float32 embedding, or null. */
  vector: z.string().nullable(),
});

export const exportDumpSchema = z.object({
  format: z.literal(EXPORT_FORMAT, {
    error: `expected format "${EXPORT_FORMAT}" (a file written by export)`,
  }),
  version: z.literal(EXPORT_VERSION, { error: `expected version ${EXPORT_VERSION}` }),
  exportedAt: iso,
  userId: idString,
  embedder: z.string().nullable(),
  memories: z.array(recordSchema),
  history: z.array(
    z.object({
      memoryId: idString,
      userId: idString,
      version: z.number().int().min(1),
      event: z.enum(HISTORY_EVENTS),
      text: z.string(),
      metadata: z.record(z.string(), z.unknown()),
      at: iso,
    }),
  ),
  edges: z.array(
    z.object({ userId: idString, from: idString, to: idString, type: z.enum(EDGE_TYPES), createdAt: iso }),
  ),
  kv: z.array(
    z.object({
      namespace: z.array(z.string()),
      key: z.string(),
      value: z.string(),
      createdAt: iso,
      updatedAt: iso,
    }),
  ),
  /** Work not done yet (queued, or failed with its error), so a store moved mid-way finishes it. */
  jobs: z
    .array(
      z.object({
        id: idString,
        type: z.string().min(1),
        payload: z.record(z.string(), z.unknown()),
        dedupeKey: z.string().nullable(),
        status: z.enum(["queued", "failed"]),
        attempts: z.number().int().min(0),
        lastError: z.string().nullable(),
        runAt: iso,
        createdAt: iso,
        updatedAt: iso,
      }),
    )
    .default([]),
});
export type ExportDump = z.infer<typeof exportDumpSchema>;

function vectorToBase64(v: Float32Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64");
}

/**
 * A dump's vector, checked: whole float32 values (a multiple of 4 bytes, at least one), all finite, and as
 * many as the dump's other vectors have. A broken one is a ValidationError naming it, before any write.
 */
function base64ToVector(s: string, where: string, dimensions: { n: number | null }): Float32Array {
  const bytes = Buffer.from(s, "base64");
  const bad = (why: string) =>
    new ValidationError(`import: ${where}: ${why}; expected the base64 of float32 values, as export writes`, {
      details: { path: where },
    });
  if (bytes.byteLength === 0 || bytes.byteLength % 4 !== 0) {
    throw bad(`${bytes.byteLength} bytes is not a whole number of float32 values`);
  }
  const v = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(v.buffer).set(bytes);
  if (!v.every(Number.isFinite)) throw bad("it holds a value that is not a finite number");
  if (dimensions.n !== null && v.length !== dimensions.n) {
    throw bad(`${v.length} dimensions where the dump's other vectors have ${dimensions.n}`);
  }
  dimensions.n = v.length;
  return v;
}

/** Everything stored for one user, as one JSON-serialisable document. */
export async function exportUser(ctx: EngineContext, userId: string): Promise<ExportDump> {
  const scope = { userId };
  const records = await ctx.storage.scan(scope, { order: "asc" });
  const vectors = await ctx.storage.getVectors(
    scope,
    records.map((r) => r.id),
  );
  const history = (await Promise.all(records.map((r) => ctx.storage.history(scope, r.id)))).flat();
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: ctx.clock().toISOString(),
    userId,
    // The embedder that made the stored vectors, which need not be this engine's.
    embedder: (await readEmbedderRecord(ctx.storage))?.id ?? ctx.embedder?.id ?? null,
    memories: records.map((r) => {
      const v = vectors.get(r.id);
      return { ...r, cube: [...r.cube], vector: v ? vectorToBase64(v) : null };
    }),
    history,
    edges: await ctx.storage.edges(scope, {}),
    kv: (await ctx.storage.kvList(scope)).map((e) => ({ ...e, namespace: [...e.namespace] })),
    jobs: await pendingJobs(ctx, userId),
  };
}

/** Jobs not done, as an export carries them; a running one goes as queued (its worker stays behind). */
async function pendingJobs(ctx: EngineContext, userId: string): Promise<ExportDump["jobs"]> {
  const jobs = await ctx.storage.jobs({ userId });
  return jobs
    .filter((j) => j.status !== "done")
    .map((j) => ({
      id: j.id,
      type: j.type,
      payload: j.payload,
      dedupeKey: j.dedupeKey ?? null,
      status: j.status === "failed" ? ("failed" as const) : ("queued" as const),
      attempts: j.attempts,
      lastError: j.lastError,
      runAt: j.runAt,
      createdAt: j.createdAt,
      updatedAt: j.updatedAt,
    }));
}

function restoredJob(j: ExportDump["jobs"][number]): NewJob {
  const { id, type, payload, dedupeKey, runAt, ...state } = j;
  return { id, type, payload, runAt, ...(dedupeKey !== null ? { dedupeKey } : {}), restore: state };
}

/** How far an import's embedding has come: memories embedded so far, of those it embeds. */
export interface ImportProgress {
  readonly userId: string;
  readonly embedded: number;
  readonly total: number;
}

export interface ImportOptions {
  /** Called after each group of memories is embedded (a dump made with another embedder, or none). */
  readonly onProgress?: (progress: ImportProgress) => void;
}

/** Memories per embedding call of an import: progress is heard this often. */
const IMPORT_EMBED_BATCH = 64;

/**
 * Embeds records in groups of about IMPORT_EMBED_BATCH, a long turn always with its passages (its vector
 * is made from theirs), telling `progress` after each. A failing model stops the embedding: what is left
 * is returned without vectors (pending), with the error, as embedRecords does for one call.
 */
async function embedInGroups(
  ctx: EngineContext,
  records: readonly MemoryRecord[],
  progress: (embedded: number) => void,
): Promise<EmbedOutcome & { readonly embedded: number }> {
  if (!ctx.embedder || records.length === 0) return { ...(await embedRecords(ctx, records)), embedded: 0 };
  const byOwner = new Map<string, MemoryRecord[]>();
  for (const record of records) {
    const owner = passageOf(record)?.turn ?? record.id;
    const group = byOwner.get(owner);
    if (group) group.push(record);
    else byOwner.set(owner, [record]);
  }
  const groups = [...byOwner.values()];
  const stored: StoredMemory[] = [];
  let batch: MemoryRecord[] = [];
  for (const [i, group] of groups.entries()) {
    batch.push(...group);
    if (batch.length < IMPORT_EMBED_BATCH && i < groups.length - 1) continue;
    const { stored: done, error } = await embedRecords(ctx, batch);
    batch = [];
    if (error) {
      const left = unembedded(groups.slice(i + 1).flat());
      return { stored: [...stored, ...done, ...left], error, embedded: stored.length };
    }
    stored.push(...done);
    progress(stored.length);
  }
  return { stored, error: null, embedded: stored.length };
}

export interface ImportResult {
  readonly userId: string;
  readonly memories: number;
  readonly reembedded: number;
}

/**
 * Restores a dump in one atomic write. Vectors are kept when the dump was made with this engine's embedder,
 * and recomputed otherwise. Existing memories with the same ids are replaced.
 */
export async function importDump(
  ctx: EngineContext,
  raw: unknown,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const dump = parseInput(exportDumpSchema, raw, "import");
  const foreign = [...dump.memories, ...dump.history, ...dump.edges].find((x) => x.userId !== dump.userId);
  if (foreign) {
    throw new ValidationError(
      `import: the dump is for user ${dump.userId} but holds data of user ${foreign.userId}`,
    );
  }
  // Binds the store to this engine's embedder first (one made by another is refused), even when every
  // vector of the dump is kept and nothing is embedded.
  await ctx.embedder?.embed([]);
  const sameEmbedder = dump.embedder !== null && dump.embedder === (ctx.embedder?.id ?? null);
  const keep: StoredMemory[] = [];
  const redo: MemoryRecord[] = [];
  const dimensions = { n: null as number | null };
  for (const [i, { vector, ...record }] of dump.memories.entries()) {
    if (vector && sameEmbedder) {
      keep.push({ record, vector: base64ToVector(vector, `memories.${i}.vector`, dimensions) });
    } else redo.push(record);
  }
  const { stored, error, embedded } = await embedInGroups(ctx, redo, (done) =>
    options.onProgress?.({ userId: dump.userId, embedded: done, total: redo.length }),
  );
  const scope = { userId: dump.userId };
  const now = ctx.clock().toISOString();
  await ctx.storage.write(scope, {
    upsert: [...keep, ...stored],
    history: dump.history,
    edges: dump.edges,
    kvPut: dump.kv,
    // Embedding failed: the memories are stored (full-text searchable) and the embedding is queued.
    jobs: [
      ...dump.jobs.map(restoredJob),
      ...(error ? [embedJob.create(ctx, { ids: stored.slice(embedded).map((s) => s.record.id) }, now)] : []),
    ],
  });
  const reembedded = ctx.embedder ? embedded : 0;
  return { userId: dump.userId, memories: dump.memories.length, reembedded };
}
