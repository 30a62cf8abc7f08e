import type { KvEntry } from "@engram/core";
import {
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
  copyCheckpoint,
  type PendingWrite,
  type SerializerProtocol,
  WRITES_IDX_MAP,
} from "@langchain/langgraph-checkpoint";
import {
  blobsNs,
  type CheckpointRow,
  checkpointsNs,
  encodeTyped,
  newestFirstKey,
  THREAD_INDEX,
  type WriteRow,
  writeKey,
} from "./checkpoint-layout.js";

type KvPut = Omit<KvEntry, "createdAt" | "updatedAt">;

export interface CheckpointInput {
  readonly threadId: string;
  readonly checkpointNs: string;
  readonly parentId: string | undefined;
  readonly checkpoint: Checkpoint;
  readonly metadata: CheckpointMetadata;
  readonly newVersions: ChannelVersions;
}

/**
 * The rows of one put, written together: a value per channel that has a new version (the unchanged ones
 * are already stored under their version), the checkpoint without its values, and the thread's ownership entry.
 */
export async function checkpointEntries(serde: SerializerProtocol, input: CheckpointInput): Promise<KvPut[]> {
  const { threadId, checkpointNs } = input;
  const copy = copyCheckpoint(input.checkpoint);
  const blobs = await Promise.all(
    Object.entries(input.newVersions).map(async ([channel, version]) => ({
      namespace: blobsNs(threadId, checkpointNs, channel),
      key: String(version),
      value: JSON.stringify(
        channel in copy.channel_values
          ? encodeTyped(await serde.dumpsTyped(copy.channel_values[channel]))
          : { t: "empty" },
      ),
    })),
  );
  copy.channel_values = {};
  const row: CheckpointRow = {
    id: copy.id,
    ...(input.parentId ? { parentId: input.parentId } : {}),
    checkpoint: encodeTyped(await serde.dumpsTyped(copy)),
    metadata: encodeTyped(await serde.dumpsTyped(input.metadata)),
  };
  return [
    ...blobs,
    {
      namespace: checkpointsNs(threadId, checkpointNs),
      key: newestFirstKey(copy.id),
      value: JSON.stringify(row),
    },
    { namespace: THREAD_INDEX, key: threadId, value: "{}" },
  ];
}

export interface WritesInput {
  readonly namespace: string[];
  readonly writes: PendingWrite[];
  readonly taskId: string;
  readonly taskPath: string;
  /** Keys of the writes already stored for the checkpoint, read only when needed. */
  readonly existing: () => Promise<Set<string>>;
}

/** Rows of a task's pending writes: regular ones keep the first value written, special ones are replaced. */
export async function writeEntries(serde: SerializerProtocol, input: WritesInput): Promise<KvPut[]> {
  const indexed = input.writes.map(([channel, value], i) => ({
    channel,
    value,
    idx: WRITES_IDX_MAP[channel] ?? i,
  }));
  const existing = indexed.some((w) => w.idx >= 0) ? await input.existing() : new Set<string>();
  return Promise.all(
    indexed
      .filter((w) => w.idx < 0 || !existing.has(writeKey(input.taskId, w.idx)))
      .map(async (w) => {
        const row: WriteRow = {
          taskId: input.taskId,
          idx: w.idx,
          channel: w.channel,
          taskPath: input.taskPath,
          value: encodeTyped(await serde.dumpsTyped(w.value)),
        };
        return { namespace: input.namespace, key: writeKey(input.taskId, w.idx), value: JSON.stringify(row) };
      }),
  );
}
