import { z } from "zod";
import { assertScope, parseInput, type Scope, scopeSchema } from "../model/index.js";
import { assertWritable, type KvEntry, type StoragePort } from "../storage/index.js";

/**
 * A user's key-value space (checkpoints, registries of integrations). Every call names its scope; the
 * entries go with the user on `forget` and `export`.
 */
export interface KvApi {
  get(scope: Scope, namespace: readonly string[], key: string): Promise<KvEntry | null>;
  /** Entries under a namespace prefix, ordered by namespace then key. */
  list(scope: Scope, options?: KvListInput): Promise<KvEntry[]>;
  /** Puts and deletes as one atomic write. */
  write(scope: Scope, changes: KvChanges): Promise<void>;
}

export interface KvListInput {
  readonly prefix?: readonly string[];
  readonly limit?: number;
  readonly offset?: number;
}

export interface KvChanges {
  readonly put?: readonly { namespace: readonly string[]; key: string; value: string }[];
  readonly delete?: readonly { namespace: readonly string[]; key: string }[];
}

// Parts may be empty (LangGraph's root checkpoint namespace is ""); only the shape is checked.
const namespace = z.array(z.string().max(1024)).min(1, "a namespace needs at least one part").max(32);
const key = z.string().max(1024);
const ref = z.object({ namespace, key });
const listSchema = z.object({
  prefix: z.array(z.string().max(1024)).max(32).optional(),
  limit: z.number().int().min(1).optional(),
  offset: z.number().int().min(0).optional(),
});
const changesSchema = z.object({
  put: z.array(ref.extend({ value: z.string() })).optional(),
  delete: z.array(ref).optional(),
});

export function kvApi(storage: StoragePort, open: () => void): KvApi {
  const scoped = (scope: Scope, operation: string) => {
    assertScope(scope, operation);
    return parseInput(scopeSchema, scope, operation);
  };
  return {
    async get(scope, namespace, entryKey) {
      open();
      const parsed = parseInput(ref, { namespace, key: entryKey }, "kv.get");
      return storage.kvGet(scoped(scope, "kv.get"), parsed.namespace, parsed.key);
    },
    async list(scope, options = {}) {
      open();
      return storage.kvList(scoped(scope, "kv.list"), parseInput(listSchema, options, "kv.list"));
    },
    async write(scope, changes) {
      open();
      assertWritable(storage, "kv.write");
      const { put = [], delete: remove = [] } = parseInput(changesSchema, changes, "kv.write");
      if (put.length || remove.length) {
        await storage.write(scoped(scope, "kv.write"), { kvPut: put, kvDelete: remove });
      }
    },
  };
}
