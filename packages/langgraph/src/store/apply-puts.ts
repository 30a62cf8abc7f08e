import type { Engram } from "@engram/core";
import type { PutOperation } from "@langchain/langgraph-checkpoint";
import { indexText } from "./item-record.js";

export interface PutDeps {
  readonly engram: Engram;
  readonly fields: readonly string[];
  readonly clock: () => Date;
}

/** Applies one user's puts and deletes as one atomic write through the engine's items facet. */
export async function applyPuts(deps: PutDeps, userId: string, ops: readonly PutOperation[]): Promise<void> {
  const put = ops.flatMap((op) => {
    if (op.value === null) return [];
    const fields = op.index === false ? false : (op.index ?? deps.fields);
    const text = fields === false ? "" : indexText(op.value, fields);
    return [{ cube: op.namespace, key: op.key, value: op.value, text }];
  });
  const remove = ops.filter((op) => op.value === null).map((op) => ({ cube: op.namespace, key: op.key }));
  const at = deps.clock().toISOString();
  await deps.engram.items.write({ userId }, { put, delete: remove, at });
}
