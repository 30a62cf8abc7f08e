import type { Embedder } from "../ai/index.js";
import { EmbedderMismatchError, ModelError, ValidationError } from "../errors/index.js";
import { embeddingText, type MemoryRecord, parseInput, passageCount } from "../model/index.js";
import type { EngineContext } from "../runtime/index.js";
import { embedRecords, untilStored } from "../runtime/index.js";
import { assertWritable } from "../storage/index.js";
import {
  describeEmbedder,
  EMBEDDER_SETTING,
  type EmbedderMove,
  MOVE_SETTING,
  readEmbedderRecord,
  readMove,
} from "./recorded-embedder.js";
import { reembedInputSchema } from "./schemas.js";

/** Where a `reembed` stands, after each batch of memories. */
export interface ReembedProgress {
  /** The user being moved. */
  readonly userId: string;
  /** Users moved so far (including those an interrupted run had moved), of all the store's users. */
  readonly usersDone: number;
  readonly users: number;
  /** Memories given a new vector by this run so far, of `total`: those with a vector, when the run began. */
  readonly memories: number;
  readonly total: number;
}

export interface ReembedInput {
  /** Called after each batch and each user, e.g. to draw a progress bar. */
  readonly onProgress?: (progress: ReembedProgress) => void;
  /** Memories embedded per model call and write. Default 64. */
  readonly batchSize?: number;
}

export interface ReembedResult {
  /** The embedder whose vectors were replaced, as recorded (null: the store recorded none). */
  readonly from: string | null;
  readonly to: string;
  /** Users moved by this run (a resumed run leaves out those moved before it was interrupted). */
  readonly users: number;
  /** Memories given a new vector by this run. */
  readonly memories: number;
  /** True when this run finished a move an earlier run had started. */
  readonly resumed: boolean;
}

/**
 * Moves the store to the engine's embedder: every memory that has a vector gets one from the new model,
 * user by user, and the store then records the new embedder. The move is recorded in the store as it
 * goes, so an interrupted run is resumed by running it again (users it had finished are skipped), and until
 * it finishes, engines refuse to search or write with either embedder rather than mix the two.
 */
export async function reembedStore(
  ctx: EngineContext,
  embedder: Embedder | null,
  input: ReembedInput = {},
): Promise<ReembedResult> {
  const { batchSize } = parseInput(reembedInputSchema, input, "reembed");
  if (!embedder) {
    throw new ValidationError(
      "reembed: this engine has no embedder (embedder: null); create it with the embedder to move the store to",
    );
  }
  assertWritable(ctx.storage, "reembed");
  const { storage } = ctx;
  const stored = await readEmbedderRecord(storage);
  const earlier = await readMove(storage);
  if (earlier && earlier.to !== embedder.id) {
    throw new EmbedderMismatchError(
      `reembed: a move to ${earlier.to} is under way; finish it with that embedder before moving to ${embedder.id}`,
      { details: { moving: earlier.to, configured: embedder.id } },
    );
  }
  if (!earlier && stored?.id === embedder.id) {
    return { from: describeEmbedder(stored), to: embedder.id, users: 0, memories: 0, resumed: false };
  }
  const move: EmbedderMove = earlier ?? { from: stored, to: embedder.id, done: [] };
  if (!earlier) await storage.writeSetting(MOVE_SETTING, JSON.stringify(move));
  const users = await storage.users();
  const done = new Set(move.done);
  const remaining = users.filter((u) => !done.has(u));
  const total =
    done.size === 0
      ? (await storage.stats()).vectors
      : (await Promise.all(remaining.map((userId) => storage.stats({ userId })))).reduce(
          (sum, s) => sum + s.vectors,
          0,
        );
  const moving = { ...ctx, embedder };
  let memories = 0;
  let dimensions: number | null = null;
  let moved = 0;
  const report = (userId: string) =>
    input.onProgress?.({ userId, usersDone: done.size, users: users.length, memories, total });
  for (const userId of remaining) {
    const progress = (count: number) => {
      memories += count;
      report(userId);
    };
    dimensions = (await reembedUser(moving, userId, batchSize, progress)) ?? dimensions;
    done.add(userId);
    moved++;
    await storage.writeSetting(MOVE_SETTING, JSON.stringify({ ...move, done: [...done] }));
    report(userId);
  }
  await storage.writeSetting(EMBEDDER_SETTING, JSON.stringify({ id: embedder.id, dimensions }));
  await storage.writeSetting(MOVE_SETTING, null);
  return {
    from: move.from ? describeEmbedder(move.from) : null,
    to: embedder.id,
    users: moved,
    memories,
    resumed: earlier !== null,
  };
}

/**
 * Gives each of the user's memories that has a vector a new one; the size of the new vectors (null when
 * none was made). Memories embedded whole go first, then the long turns searched by passages, whose vector
 * is the mean of their passages' new vectors. Each write is conditional on the records as read, as the
 * embed job's is.
 */
async function reembedUser(
  ctx: EngineContext & { readonly embedder: Embedder },
  userId: string,
  batchSize: number,
  progress: (count: number) => void,
): Promise<number | null> {
  const scope = { userId };
  const records = await ctx.storage.scan(scope, { order: "asc" });
  const hasVector = new Set(
    (
      await ctx.storage.getVectors(
        scope,
        records.map((r) => r.id),
      )
    ).keys(),
  );
  const withVector = records.filter((r) => hasVector.has(r.id));
  const whole = withVector.filter((r) => passageCount(r) === 0).map((r) => r.id);
  const means = withVector.filter((r) => passageCount(r) > 0).map((r) => r.id);
  const { maxChars } = ctx.embedding;
  let dimensions: number | null = null;
  for (const [ids, byMean] of [...batches(whole, batchSize, false), ...batches(means, batchSize, true)]) {
    const count = await untilStored("reembed", async () => {
      const current = await ctx.storage.get(scope, ids);
      const upsert = byMean
        ? await meanVectors(ctx, current)
        : await wholeVectors(ctx.embedder, current, maxChars);
      dimensions = upsert.find((u) => u.vector)?.vector?.length ?? dimensions;
      const { conflicts } = await ctx.storage.write(scope, { upsert, expect: current });
      return conflicts.length ? null : current.length;
    });
    progress(count);
  }
  return dimensions;
}

function batches(ids: readonly string[], size: number, byMean: boolean): [string[], boolean][] {
  const out: [string[], boolean][] = [];
  for (let i = 0; i < ids.length; i += size) out.push([ids.slice(i, i + size), byMean]);
  return out;
}

async function wholeVectors(embedder: Embedder, records: readonly MemoryRecord[], maxChars: number) {
  const vectors = await embedder.embed(records.map((r) => embeddingText(r, maxChars)));
  return records.map((record, i) => ({ record, vector: vectors[i] ?? null }));
}

async function meanVectors(ctx: EngineContext, records: readonly MemoryRecord[]) {
  const { stored, error } = await embedRecords(ctx, records, { report: false });
  if (error) throw new ModelError(`reembed: ${error.message}`, { cause: error });
  return stored;
}
