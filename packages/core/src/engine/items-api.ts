import { z } from "zod";
import {
  assertScope,
  cubeKey,
  cubeSchema,
  type MemoryRecord,
  newRecord,
  parseCubeKey,
  parseInput,
  type Scope,
  scopeSchema,
  versionOf,
} from "../model/index.js";
import type { EngineContext } from "../runtime/index.js";
import { embedJob, embedRecords, untilStored } from "../runtime/index.js";
import { assertWritable } from "../storage/index.js";

/**
 * Keyed JSON items in a user's cubes (the LangGraph store's items): memories of kind `item` with their
 * history, embedded when they have text, searchable with `engram.search({ kinds: ["item"] })`.
 */
export interface ItemsApi {
  /** The current item under a cube and key, or null. */
  get(scope: Scope, cube: readonly string[], key: string): Promise<MemoryRecord | null>;
  /** Current items of these cubes, in the order they were first stored. */
  list(scope: Scope, options: ItemListInput): Promise<MemoryRecord[]>;
  /** The cubes the user has stored items in (`live`: only those still holding one). */
  cubes(scope: Scope, options?: { live?: boolean }): Promise<string[][]>;
  /** Users that have stored items. */
  owners(): Promise<string[]>;
  /**
   * Puts and deletes as one atomic write: items, their history, their cubes, queued embeddings. The write
   * is conditional on the items it replaces or deletes, as read; when another writer stored one meanwhile,
   * the changes are applied again to the items as they are then.
   */
  write(scope: Scope, changes: ItemChanges): Promise<void>;
}

export interface ItemListInput {
  readonly cubes: readonly (readonly string[])[];
  readonly limit?: number;
  readonly offset?: number;
}

export interface ItemPut {
  readonly cube: readonly string[];
  readonly key: string;
  readonly value: Record<string, unknown>;
  /** The text the item is searched by; empty: not embedded, the value's JSON is shown instead. */
  readonly text: string;
}

export interface ItemChanges {
  readonly put?: readonly ItemPut[];
  readonly delete?: readonly { cube: readonly string[]; key: string }[];
  /** Time of the write (default: the engine's clock). */
  readonly at?: string;
}

/** How an item sits in a memory's metadata: the value itself, and whether it was embedded. */
export interface ItemMetadata {
  readonly value: Record<string, unknown>;
  readonly indexed: boolean;
}

// The registry's layout predates this facet (LangGraph store); kept so existing stores read unchanged.
const REGISTRY_NS: readonly string[] = ["langgraph", "store", "namespaces"];

const key = z.string().min(1, 'an item key must be a non-empty string, e.g. "favorite-color"');
const changesSchema = z.object({
  put: z
    .array(z.object({ cube: cubeSchema, key, value: z.record(z.string(), z.unknown()), text: z.string() }))
    .optional(),
  delete: z.array(z.object({ cube: cubeSchema, key })).optional(),
  at: z.iso.datetime({ offset: true }).optional(),
});
const listSchema = z.object({
  cubes: z.array(cubeSchema),
  limit: z.number().int().min(1).optional(),
  offset: z.number().int().min(0).optional(),
});

function draft(put: ItemPut, userId: string, id: string, now: string, before?: MemoryRecord): MemoryRecord {
  const indexed = put.text !== "";
  const metadata: ItemMetadata = { value: put.value, indexed };
  const text = indexed ? put.text : JSON.stringify(put.value);
  if (before) {
    return {
      ...before,
      text,
      metadata: { ...metadata },
      version: before.version + 1,
      updatedAt: now,
      status: "ready",
    };
  }
  const fields = {
    id,
    userId,
    cube: [...put.cube],
    kind: "item" as const,
    tier: "long" as const,
    key: put.key,
  };
  return newRecord({ ...fields, text, metadata: { ...metadata } }, now);
}

export function itemsApi(ctx: EngineContext, open: () => void): ItemsApi {
  const { storage } = ctx;
  const scoped = (scope: Scope, operation: string) => {
    assertScope(scope, operation);
    return parseInput(scopeSchema, scope, operation);
  };
  const current = async (scope: Scope, cube: readonly string[], itemKey: string) => {
    const filter = { kinds: ["item" as const], cubes: [cube], key: itemKey, current: true };
    const [found] = await storage.scan(scope, { filter, limit: 1 });
    return found ?? null;
  };
  const registered = async (scope: Scope) =>
    (await storage.kvList(scope, { prefix: REGISTRY_NS })).map((e) => parseCubeKey(e.key));

  return {
    async get(scope, cube, itemKey) {
      open();
      const parsed = parseInput(z.object({ cube: cubeSchema, key }), { cube, key: itemKey }, "items.get");
      return current(scoped(scope, "items.get"), parsed.cube, parsed.key);
    },
    async list(scope, options) {
      open();
      const { cubes, limit, offset } = parseInput(listSchema, options, "items.list");
      if (cubes.length === 0) return [];
      const page = { ...(limit !== undefined ? { limit } : {}), ...(offset !== undefined ? { offset } : {}) };
      return storage.scan(scoped(scope, "items.list"), {
        filter: { kinds: ["item"], cubes, current: true },
        ...page,
      });
    },
    async cubes(scope, options = {}) {
      open();
      const checked = scoped(scope, "items.cubes");
      const all = await registered(checked);
      if (!options.live) return all;
      // Emptied cubes stay registered (a delete racing a put must not unlist a live one): count instead.
      const counts = await Promise.all(
        all.map((cube) => storage.count(checked, { kinds: ["item"], cubes: [cube], current: true })),
      );
      return all.filter((_, i) => (counts[i] ?? 0) > 0);
    },
    async owners() {
      open();
      const users = await storage.users();
      const holding = await Promise.all(
        users.map(async (userId) => ((await registered({ userId })).length ? userId : null)),
      );
      return holding.filter((u): u is string => u !== null);
    },
    async write(scope, changes) {
      open();
      assertWritable(storage, "items.write");
      const checked = scoped(scope, "items.write");
      const { put = [], delete: remove = [], at } = parseInput(changesSchema, changes, "items.write");
      const now = at ?? ctx.clock().toISOString();
      await untilStored("items.write", async () => {
        const removed = (await Promise.all(remove.map((d) => current(checked, d.cube, d.key)))).filter(
          (r): r is MemoryRecord => r !== null,
        );
        const deleteIds = removed.map((r) => r.id);
        const before = await Promise.all(put.map((p) => current(checked, p.cube, p.key)));
        const drafts = put.map((p, i) =>
          draft(p, checked.userId, `item_${ctx.ids()}`, now, before[i] ?? undefined),
        );
        const embedded = await embedRecords(
          ctx,
          drafts.filter((r) => r.metadata.indexed === true),
        );
        const vectors = new Map(embedded.stored.map((s) => [s.record.id, s]));
        const stored = drafts.map((record) => vectors.get(record.id) ?? { record, vector: null });
        const pending = embedded.stored.filter((s) => s.record.status === "pending").map((s) => s.record.id);
        const history = stored.map(({ record }) =>
          versionOf(record, record.version === 1 ? "create" : "update", now),
        );
        // The cubes are registered in the same batch as the items, so a cube with items is always listed.
        const kvPut = put.map((p) => ({ namespace: REGISTRY_NS, key: cubeKey(p.cube), value: "{}" }));
        const jobs = pending.length ? [embedJob.create(ctx, { ids: pending }, now)] : [];
        const expect = [...removed, ...before.filter((r): r is MemoryRecord => r !== null)];
        const { conflicts } = await storage.write(checked, {
          upsert: stored,
          deleteIds,
          history,
          kvPut,
          jobs,
          expect,
        });
        return conflicts.length ? null : true;
      });
    },
  };
}
