import type { Engram, KvApi, KvEntry, Scope } from "@engram/core";
import { ValidationError } from "@engram/core";
import { parseInput } from "@engram/core/integration";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  getCheckpointId,
  type PendingWrite,
  type SerializerProtocol,
} from "@langchain/langgraph-checkpoint";
import { z } from "zod";
import {
  type CheckpointRow,
  checkpointsNs,
  decodeTyped,
  newestFirstKey,
  parseRow,
  THREAD_INDEX,
  threadRoot,
  writesNs,
} from "./checkpoint-layout.js";
import { checkpointEntries, writeEntries } from "./encode-rows.js";
import { readTuple, type TupleSource } from "./read-tuple.js";
import {
  type OwnerOptions,
  ownerOptionsSchema,
  requireThreadId,
  threadIdOf,
  threadOwner,
} from "./thread-owner.js";

export interface EngramCheckpointerOptions {
  /** The `configurable` key naming the user who owns a thread. Default `user_id`. */
  userIdKey?: string;
  /** Owner of threads whose config names no user. Default: none, such calls are refused. */
  defaultUserId?: string;
  /** How checkpoint values are serialized. Default LangGraph's JsonPlusSerializer. */
  serde?: SerializerProtocol;
}

const serdeSchema = z.custom<SerializerProtocol>(
  (v) =>
    typeof v === "object" &&
    v !== null &&
    typeof (v as SerializerProtocol).dumpsTyped === "function" &&
    typeof (v as SerializerProtocol).loadsTyped === "function",
  {
    message: "expected a LangGraph serializer with dumpsTyped and loadsTyped, e.g. new JsonPlusSerializer()",
  },
);
const optionsSchema = ownerOptionsSchema.extend({ serde: serdeSchema.optional() });

/** Rows read per page when listing a thread's checkpoints. */
const PAGE = 64;

/**
 * A LangGraph checkpointer on an Engram engine. Every row goes through the engine's key-value
 * facet (`engram.kv`) under the thread owner's scope, so it runs on any Engram backend, and `engram.forget({ userId })`
 * erases the user's threads. Channel values are stored once per version, not once per checkpoint.
 */
export class EngramCheckpointer extends BaseCheckpointSaver {
  private readonly kv: KvApi;
  private readonly owner: OwnerOptions;

  constructor(
    private readonly engram: Engram,
    options: EngramCheckpointerOptions = {},
  ) {
    const parsed = parseInput(optionsSchema, options, "EngramCheckpointer");
    super(parsed.serde);
    this.kv = engram.kv;
    this.owner = { userIdKey: parsed.userIdKey, defaultUserId: parsed.defaultUserId };
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = threadIdOf(config, "getTuple");
    if (threadId === undefined) return undefined;
    const scope = threadOwner(config, this.owner, "getTuple");
    const checkpointNs = String(config.configurable?.checkpoint_ns ?? "");
    const checkpointId = getCheckpointId(config);
    const namespace = checkpointsNs(threadId, checkpointNs);
    const entry = checkpointId
      ? await this.kv.get(scope, namespace, newestFirstKey(checkpointId))
      : (await this.kv.list(scope, { prefix: namespace, limit: 1 }))[0];
    if (!entry) return undefined;
    const where = { scope, threadId, checkpointNs, carry: this.carry(config) };
    return readTuple(this.source(), where, parseRow<CheckpointRow>(entry), checkpointId ? config : undefined);
  }

  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const scope = threadOwner(config, this.owner, "list");
    const given = threadIdOf(config, "list");
    const threads = given !== undefined ? [given] : await this.threadsOf(scope);
    const ns = config.configurable?.checkpoint_ns;
    const onlyId = getCheckpointId(config) || undefined;
    const before = options.before ? getCheckpointId(options.before) || undefined : undefined;
    let remaining = options.limit ?? Number.POSITIVE_INFINITY;
    for (const threadId of threads) {
      const prefix =
        ns === undefined ? [...threadRoot(threadId), "checkpoints"] : checkpointsNs(threadId, ns);
      for await (const entry of this.pages(scope, prefix)) {
        if (remaining <= 0) return;
        const row = parseRow<CheckpointRow>(entry);
        if (onlyId !== undefined && row.id !== onlyId) continue;
        if (before !== undefined && row.id >= before) continue;
        const where = {
          scope,
          threadId,
          checkpointNs: entry.namespace.at(-1) ?? "",
          carry: this.carry(config),
        };
        if (options.filter && !(await this.metadataMatches(row, options.filter))) continue;
        remaining--;
        yield await readTuple(this.source(), where, row);
      }
    }
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const threadId = requireThreadId(config, "put");
    const scope = threadOwner(config, this.owner, "put");
    const checkpointNs = String(config.configurable?.checkpoint_ns ?? "");
    const parentId = config.configurable?.checkpoint_id as string | undefined;
    const kvPut = await checkpointEntries(this.serde, {
      threadId,
      checkpointNs,
      parentId,
      checkpoint,
      metadata,
      newVersions,
    });
    await this.kv.write(scope, { put: kvPut });
    return {
      configurable: {
        ...this.carry(config),
        thread_id: threadId,
        checkpoint_ns: checkpointNs,
        checkpoint_id: checkpoint.id,
      },
    };
  }

  async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath = "",
  ): Promise<void> {
    const threadId = requireThreadId(config, "putWrites");
    const checkpointId = getCheckpointId(config);
    if (!checkpointId) {
      throw new ValidationError(
        "EngramCheckpointer.putWrites: the config is missing configurable.checkpoint_id; pass the config put() returned",
      );
    }
    const scope = threadOwner(config, this.owner, "putWrites");
    const checkpointNs = String(config.configurable?.checkpoint_ns ?? "");
    const namespace = writesNs(threadId, checkpointNs, checkpointId);
    const kvPut = await writeEntries(this.serde, {
      namespace,
      writes,
      taskId,
      taskPath,
      existing: async () => new Set((await this.kv.list(scope, { prefix: namespace })).map((e) => e.key)),
    });
    if (kvPut.length) await this.kv.write(scope, { put: kvPut });
  }

  /**
   * Removes the thread's checkpoints, writes and channel values. LangGraph names only the thread, so every
   * user owning a thread of that id loses it; pass `{ userId }` to touch one user only.
   */
  async deleteThread(threadId: string, options: { userId?: string } = {}): Promise<void> {
    const id = requireThreadId({ configurable: { thread_id: threadId } }, "deleteThread");
    const owners = options.userId !== undefined ? [options.userId] : await this.engram.users();
    for (const userId of owners) {
      const scope = { userId };
      if (!(await this.kv.get(scope, THREAD_INDEX, id))) continue;
      const rows = await this.kv.list(scope, { prefix: threadRoot(id) });
      await this.kv.write(scope, {
        delete: [
          ...rows.map((r) => ({ namespace: r.namespace, key: r.key })),
          { namespace: THREAD_INDEX, key: id },
        ],
      });
    }
  }

  /** Thread ids the user owns, oldest key first. */
  async threads(userId: string): Promise<string[]> {
    return this.threadsOf(
      threadOwner({ configurable: { [this.owner.userIdKey]: userId } }, this.owner, "threads"),
    );
  }

  private async threadsOf(scope: Scope): Promise<string[]> {
    return (await this.kv.list(scope, { prefix: THREAD_INDEX })).map((e) => e.key);
  }

  private async *pages(scope: Scope, prefix: readonly string[]): AsyncGenerator<KvEntry> {
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.kv.list(scope, { prefix, limit: PAGE, offset });
      yield* page;
      if (page.length < PAGE) return;
    }
  }

  private async metadataMatches(row: CheckpointRow, filter: Record<string, unknown>): Promise<boolean> {
    const metadata = (await this.serde.loadsTyped(...decodeTyped(row.metadata))) as Record<string, unknown>;
    return Object.entries(filter).every(([key, value]) => metadata[key] === value);
  }

  /** The owner key of a config, kept in the configs returned, so put -> putWrites -> getTuple chains keep it. */
  private carry(config: RunnableConfig): Record<string, unknown> {
    const value = config.configurable?.[this.owner.userIdKey];
    return value === undefined ? {} : { [this.owner.userIdKey]: value };
  }

  private source(): TupleSource {
    return { kv: this.kv, serde: this.serde, firstVersion: () => this.getNextVersion(undefined) };
  }
}
