import { type Engram, ValidationError } from "@engram/core";
import { cubeSchema, parseInput } from "@engram/core/integration";
import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type MatchCondition,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchOperation,
  validateNamespace,
} from "@langchain/langgraph-checkpoint";
import { applyPuts } from "./apply-puts.js";
import { toItem } from "./item-record.js";
import { searchItems } from "./search-items.js";
import {
  namespaceOwner,
  prefixOwner,
  requireOwner,
  type StoreOptions,
  storeOptionsSchema,
} from "./store-owner.js";

export interface EngramStoreOptions {
  /**
   * The namespace label naming the Engram user who owns an item, e.g. 1 for `["memories", userId]`. Then
   * the user's items are part of their memory: `engram.search`, `retrieve`, `forget({ userId })` see them.
   */
  userIdAt?: number;
  /** One Engram user owning every item (a shared store). Default `langgraph` when userIdAt is not set. */
  userId?: string;
  /** Value fields embedded and searched (LangGraph paths). Default `["$"]`, the whole value as JSON. */
  fields?: string[];
  /** Clock for createdAt/updatedAt (tests). Default the system clock. */
  clock?: () => Date;
}

function matches(namespace: readonly string[], condition: MatchCondition): boolean {
  const { matchType, path } = condition;
  if (path.length > namespace.length) return false;
  const start = matchType === "prefix" ? 0 : namespace.length - path.length;
  return path.every((label, i) => label === "*" || namespace[start + i] === label);
}

/**
 * A LangGraph store whose items are Engram memories: a namespace is a cube, an item a memory of kind
 * `item`. Search with a query runs Engram's hybrid search and scores each item as InMemoryStore does, by
 * the cosine similarity of the query to it (an item only the full-text channel found follows, without a
 * score); filter, limit and offset behave as in InMemoryStore. Items are visible to `engram.search` and
 * the CLI under their owner.
 */
export class EngramStore extends BaseStore {
  private readonly options: StoreOptions;
  private readonly clock: () => Date;

  constructor(
    private readonly engram: Engram,
    options: EngramStoreOptions = {},
  ) {
    super();
    const { clock, ...rest } = options;
    this.options = parseInput(storeOptionsSchema, rest, "EngramStore");
    this.clock = clock ?? (() => new Date());
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    for (const op of operations) this.check(op);
    // Reads see the state before this batch's writes, as in InMemoryStore.
    const results = await Promise.all(
      operations.map((op) => {
        if ("namespacePrefix" in op) return this.searchOp(op);
        if ("matchConditions" in op) return this.listNamespacesOp(op);
        if ("value" in op) return null;
        return this.getItem(op as GetOperation);
      }),
    );
    await this.write(operations.filter((op): op is PutOperation => "value" in op && "key" in op));
    return results as OperationResults<Op>;
  }

  private check(op: Operation): void {
    if ("namespace" in op) {
      try {
        validateNamespace(op.namespace);
      } catch (cause) {
        throw new ValidationError(`EngramStore: ${(cause as Error).message}`, { cause });
      }
      parseInput(cubeSchema, op.namespace, "EngramStore namespace");
      if (typeof op.key !== "string" || op.key === "") {
        throw new ValidationError(
          'EngramStore: an item key must be a non-empty string, e.g. "favorite-color"',
        );
      }
    }
    if ("value" in op && op.value !== null && (typeof op.value !== "object" || Array.isArray(op.value))) {
      throw new ValidationError("EngramStore.put: the value must be a plain object, e.g. { text: '...' }");
    }
  }

  private async getItem(op: GetOperation): Promise<Item | null> {
    const userId = namespaceOwner(this.options, op.namespace);
    if (userId === null) return null;
    const record = await this.engram.items.get({ userId }, op.namespace, op.key);
    return record ? toItem(record) : null;
  }

  private searchOp(op: SearchOperation) {
    return searchItems({ engram: this.engram, owners: (p) => this.owners(p) }, op);
  }

  private async listNamespacesOp(op: ListNamespacesOperation): Promise<string[][]> {
    const conditions = op.matchConditions ?? [];
    const pinned = conditions.find(
      (c) => c.matchType === "prefix" && prefixOwner(this.options, c.path) !== null,
    );
    const owners = pinned ? [prefixOwner(this.options, pinned.path) as string] : await this.owners([]);
    let namespaces = (
      await Promise.all(owners.map((userId) => this.engram.items.cubes({ userId }, { live: true })))
    ).flat();
    namespaces = namespaces.filter((ns) => conditions.every((c) => matches(ns, c)));
    if (op.maxDepth !== undefined) {
      const depth = op.maxDepth;
      const unique = new Map(
        namespaces.map((ns) => ns.slice(0, depth)).map((ns) => [JSON.stringify(ns), ns]),
      );
      namespaces = [...unique.values()];
    }
    namespaces.sort((a, b) => a.join(":").localeCompare(b.join(":")));
    return namespaces.slice(op.offset ?? 0, (op.offset ?? 0) + (op.limit ?? namespaces.length));
  }

  /** Owners whose items a prefix can reach: the one it names, or every user holding store items. */
  private async owners(prefix: readonly string[]): Promise<string[]> {
    const pinned = prefixOwner(this.options, prefix);
    if (pinned !== null) return [pinned];
    return this.engram.items.owners();
  }

  private async write(puts: PutOperation[]): Promise<void> {
    // The last put of a key in a batch wins.
    const last = new Map(puts.map((op) => [JSON.stringify([op.namespace, op.key]), op]));
    const byOwner = new Map<string, PutOperation[]>();
    for (const op of last.values()) {
      // Deleting from a namespace that names no user deletes nothing; putting there is refused.
      const userId =
        op.value === null
          ? namespaceOwner(this.options, op.namespace)
          : requireOwner(this.options, op.namespace);
      if (userId === null) continue;
      byOwner.set(userId, [...(byOwner.get(userId) ?? []), op]);
    }
    const deps = { engram: this.engram, fields: this.options.fields, clock: this.clock };
    for (const [userId, ops] of byOwner) await applyPuts(deps, userId, ops);
  }
}
