import { type MemoryRecord, type MemoryVersion, type StoredMemory, userCube } from "@engram/core";
import { ownLine, randomIds } from "@engram/core/integration";
import { SqliteStorage } from "@engram/core/sqlite";
import type { PoolTurn } from "./bench-data.js";
import { gaussian, seededRandom } from "./stats.js";

/** Embedded turns the corpus is drawn from. */
export interface Pool {
  readonly turns: readonly PoolTurn[];
  readonly vectors: readonly Float32Array[];
}

export interface CorpusSpec {
  readonly path: string;
  readonly users: number;
  readonly perUser: number;
  /** Memories of each user, when they differ (overrides `users` and `perUser`). */
  readonly sizes?: readonly number[];
  /** Called after each user with the memories written so far. */
  readonly onUser?: (written: number) => void;
  readonly pool: Pool;
  /** Noise added to each reused pool vector, relative to its unit length (renormalised after). */
  readonly sigma: number;
  readonly seed: number;
}

export interface Corpus {
  readonly path: string;
  readonly userIds: string[];
  /** Ids and vectors of the first user, for the exact reference search. */
  readonly firstUser: { ids: string[]; vectors: Float32Array[] };
  readonly memories: number;
  readonly seconds: number;
}

/** Turns per session, written in one batch. */
const SESSION = 100;

function perturb(vector: Float32Array, sigma: number, normal: () => number): Float32Array {
  const out = new Float32Array(vector.length);
  const scale = sigma / Math.sqrt(vector.length);
  let norm = 0;
  for (let i = 0; i < out.length; i++) {
    out[i] = (vector[i] as number) + scale * normal();
    norm += (out[i] as number) ** 2;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / norm;
  return out;
}

/** One session of message memories, shaped as `engram.add` shapes them (context = the turn before). */
function session(userId: string, sessionId: string, turns: readonly PoolTurn[], at: Date): MemoryRecord[] {
  let context: string | null = null;
  return turns.map((turn, i) => {
    const time = new Date(at.getTime() + i * 1000).toISOString();
    const record: MemoryRecord = {
      id: randomIds(),
      userId,
      cube: userCube(userId),
      agentId: null,
      sessionId,
      kind: "message",
      tier: "short",
      role: i % 2 ? "assistant" : "user",
      name: turn.speaker,
      text: turn.text,
      context,
      key: null,
      metadata: {},
      status: "ready",
      version: 1,
      validFrom: time,
      validTo: null,
      createdAt: time,
      updatedAt: time,
      expiredAt: null,
    };
    context = ownLine(record);
    return record;
  });
}

const created = (r: MemoryRecord): MemoryVersion => ({
  memoryId: r.id,
  userId: r.userId,
  version: 1,
  event: "create",
  text: r.text,
  metadata: r.metadata,
  at: r.createdAt,
});

/**
 * Builds a store of `users x perUser` memories without running the model for each: every memory reuses
 * the text of a random pool turn and that turn's USE-lite vector with small Gaussian noise. Records and
 * history are those `engram.add` writes, stored through the storage port one session per batch.
 */
export async function buildCorpus(spec: CorpusSpec): Promise<Corpus> {
  const random = seededRandom(spec.seed);
  const normal = gaussian(random);
  const storage = new SqliteStorage({ path: spec.path, durability: "normal" });
  const sizes = spec.sizes ?? Array.from({ length: spec.users }, () => spec.perUser);
  const userIds = sizes.map((_, u) => `user-${String(u).padStart(4, "0")}`);
  const firstUser = { ids: [] as string[], vectors: [] as Float32Array[] };
  const start = performance.now();
  let written = 0;
  const epoch = Date.UTC(2025, 0, 1);
  for (const [u, userId] of userIds.entries()) {
    const perUser = sizes[u] as number;
    for (let done = 0; done < perUser; done += SESSION) {
      const picks = Array.from({ length: Math.min(SESSION, perUser - done) }, () =>
        Math.floor(random() * spec.pool.turns.length),
      );
      const at = new Date(epoch + (done / SESSION) * 86_400_000);
      const records = session(
        userId,
        `s${done / SESSION}`,
        picks.map((p) => spec.pool.turns[p] as PoolTurn),
        at,
      );
      const vectors = picks.map((p) => perturb(spec.pool.vectors[p] as Float32Array, spec.sigma, normal));
      const upsert: StoredMemory[] = records.map((record, i) => ({
        record,
        vector: vectors[i] as Float32Array,
      }));
      await storage.write({ userId }, { upsert, history: records.map(created) });
      if (u === 0) {
        firstUser.ids.push(...records.map((r) => r.id));
        firstUser.vectors.push(...vectors);
      }
      written += records.length;
    }
    spec.onUser?.(written);
  }
  const seconds = (performance.now() - start) / 1000;
  await storage.close();
  return {
    path: spec.path,
    userIds,
    firstUser,
    memories: sizes.reduce((sum, n) => sum + n, 0),
    seconds: Number(seconds.toFixed(2)),
  };
}
