import type { KvApi, Scope } from "@engram/core";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  compareWritesSortKeys,
  maxChannelVersion,
  type SerializerProtocol,
  TASKS,
  writesSortKey,
} from "@langchain/langgraph-checkpoint";
import {
  blobsNs,
  type CheckpointRow,
  decodeTyped,
  parseRow,
  type StoredTyped,
  type WriteRow,
  writesNs,
} from "./checkpoint-layout.js";

export interface TupleSource {
  readonly kv: KvApi;
  readonly serde: SerializerProtocol;
  /** The first version of a channel, for checkpoints migrated from before v4. */
  readonly firstVersion: () => number | string;
}

interface Where {
  readonly scope: Scope;
  readonly threadId: string;
  readonly checkpointNs: string;
  /** Carried into the configs a tuple names (the owner key), so they can be passed back as they are. */
  readonly carry?: Record<string, unknown>;
}

/** The writes pending on a checkpoint, in LangGraph's order (task path, task id, index). */
async function readWrites(source: TupleSource, where: Where, checkpointId: string): Promise<WriteRow[]> {
  const entries = await source.kv.list(where.scope, {
    prefix: writesNs(where.threadId, where.checkpointNs, checkpointId),
  });
  return entries
    .map((e) => parseRow<WriteRow>(e))
    .map((row) => ({ row, key: writesSortKey(row.taskPath, row.taskId, row.idx) }))
    .sort((a, b) => compareWritesSortKeys(a.key, b.key))
    .map(({ row }) => row);
}

/** Channel values rebuilt from the blobs of the versions the checkpoint names. */
async function readChannelValues(
  source: TupleSource,
  where: Where,
  versions: Checkpoint["channel_versions"],
): Promise<Record<string, unknown>> {
  const loaded = await Promise.all(
    Object.entries(versions).map(async ([channel, version]) => {
      const entry = await source.kv.get(
        where.scope,
        blobsNs(where.threadId, where.checkpointNs, channel),
        String(version),
      );
      const stored = entry ? parseRow<StoredTyped>(entry) : null;
      if (!stored || stored.t === "empty") return null;
      return [channel, await source.serde.loadsTyped(...decodeTyped(stored))] as const;
    }),
  );
  return Object.fromEntries(loaded.filter((pair) => pair !== null));
}

/** Checkpoints written before v4 kept pending sends in the parent's TASKS writes; v4 keeps them as a channel. */
async function migratePendingSends(
  source: TupleSource,
  where: Where,
  checkpoint: Checkpoint,
  parentId: string,
): Promise<void> {
  const parentWrites = await readWrites(source, where, parentId);
  const sends = await Promise.all(
    parentWrites
      .filter((w) => w.channel === TASKS)
      .map((w) => source.serde.loadsTyped(...decodeTyped(w.value))),
  );
  checkpoint.channel_values ??= {};
  checkpoint.channel_values[TASKS] = sends;
  checkpoint.channel_versions ??= {};
  const versions = Object.values(checkpoint.channel_versions);
  checkpoint.channel_versions[TASKS] = versions.length
    ? maxChannelVersion(...versions)
    : source.firstVersion();
}

/** A stored checkpoint row as LangGraph's tuple: values, metadata, pending writes, parent. */
export async function readTuple(
  source: TupleSource,
  where: Where,
  row: CheckpointRow,
  config?: RunnableConfig,
): Promise<CheckpointTuple> {
  const [checkpoint, metadata, writes] = await Promise.all([
    source.serde.loadsTyped(...decodeTyped(row.checkpoint)) as Promise<Checkpoint>,
    source.serde.loadsTyped(...decodeTyped(row.metadata)) as Promise<CheckpointMetadata>,
    readWrites(source, where, row.id),
  ]);
  checkpoint.channel_values = await readChannelValues(source, where, checkpoint.channel_versions);
  if (checkpoint.v < 4 && row.parentId !== undefined) {
    await migratePendingSends(source, where, checkpoint, row.parentId);
  }
  const pendingWrites: CheckpointPendingWrite[] = await Promise.all(
    writes.map(
      async (w) =>
        [
          w.taskId,
          w.channel,
          await source.serde.loadsTyped(...decodeTyped(w.value)),
        ] as CheckpointPendingWrite,
    ),
  );
  const ids = { ...where.carry, thread_id: where.threadId, checkpoint_ns: where.checkpointNs };
  return {
    config: config ?? { configurable: { ...ids, checkpoint_id: row.id } },
    checkpoint,
    metadata,
    pendingWrites,
    ...(row.parentId !== undefined
      ? { parentConfig: { configurable: { ...ids, checkpoint_id: row.parentId } } }
      : {}),
  };
}
