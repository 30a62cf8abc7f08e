import { randomUUID } from "node:crypto";
import {
  type Embedder,
  EngramError,
  type MemoryRecord,
  type MemoryVersion,
  type NewJob,
  type StoragePort,
  type StoredMemory,
} from "@engram/core";
import type { PutOperation } from "@langchain/langgraph-checkpoint";
import { itemRecord } from "./item-record.js";
import { registryEntry } from "./namespace-registry.js";

export interface PutDeps {
  readonly storage: StoragePort;
  readonly embedder: Embedder | null;
  readonly fields: readonly string[];
  readonly clock: () => Date;
}

async function current(deps: PutDeps, userId: string, op: PutOperation): Promise<MemoryRecord | undefined> {
  const [found] = await deps.storage.scan(
    { userId },
    { filter: { kinds: ["item"], cubes: [op.namespace], key: op.key, current: true }, limit: 1 },
  );
  return found;
}

/** Embeds what needs it; a failing model stores the items without vectors and queues the embedding. */
async function embed(
  deps: PutDeps,
  drafts: { record: MemoryRecord; embed: boolean }[],
  now: string,
): Promise<{ stored: StoredMemory[]; jobs: NewJob[] }> {
  const wanted = drafts.filter((d) => d.embed && deps.embedder);
  let vectors: Float32Array[] = [];
  try {
    vectors =
      wanted.length && deps.embedder ? await deps.embedder.embed(wanted.map((d) => d.record.text)) : [];
  } catch (cause) {
    if (!EngramError.isInstance(cause) || cause.code !== "MODEL") throw cause;
    const ids = wanted.map((d) => d.record.id);
    const stored = drafts.map((d) => ({
      record: ids.includes(d.record.id) ? { ...d.record, status: "pending" as const } : d.record,
      vector: null,
    }));
    // The engine's embed job retries these memories in the background (and on flush()).
    const job = { id: `job_${randomUUID()}`, type: "embed", payload: { ids }, runAt: now };
    return { stored, jobs: [job] };
  }
  const byId = new Map(wanted.map((d, i) => [d.record.id, vectors[i] ?? null]));
  return {
    stored: drafts.map((d) => ({ record: d.record, vector: byId.get(d.record.id) ?? null })),
    jobs: [],
  };
}

/** Applies one user's puts and deletes as one atomic write: items, their history and their namespaces. */
export async function applyPuts(deps: PutDeps, userId: string, ops: readonly PutOperation[]): Promise<void> {
  const now = deps.clock().toISOString();
  const previous = await Promise.all(ops.map((op) => current(deps, userId, op)));
  const deleteIds: string[] = [];
  const drafts: { record: MemoryRecord; embed: boolean }[] = [];
  ops.forEach((op, i) => {
    const before = previous[i];
    if (op.value === null) {
      if (before) deleteIds.push(before.id);
      return;
    }
    const fields = op.index === false ? false : (op.index ?? deps.fields);
    drafts.push(
      itemRecord({
        id: `item_${randomUUID().replaceAll("-", "")}`,
        userId,
        namespace: op.namespace,
        key: op.key,
        value: op.value,
        fields,
        now,
        ...(before ? { previous: before } : {}),
      }),
    );
  });
  const { stored, jobs } = await embed(deps, drafts, now);
  const history: MemoryVersion[] = stored.map(({ record }) => ({
    memoryId: record.id,
    userId,
    version: record.version,
    event: record.version === 1 ? "create" : "update",
    text: record.text,
    metadata: record.metadata,
    at: now,
  }));
  const kvPut = ops.filter((op) => op.value !== null).map((op) => registryEntry(op.namespace));
  await deps.storage.write({ userId }, { upsert: stored, deleteIds, history, kvPut, jobs });
}
