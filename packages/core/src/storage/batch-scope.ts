import { ScopeError } from "../errors/index.js";
import type { Scope } from "../model/index.js";
import type { WriteBatch } from "./storage-port.js";

/**
 * Refuses any part of a batch that names another user than the scope's. Every backend calls it before
 * writing, so a batch can never place a record, version or edge in another user's scope.
 */
export function assertBatchScope(scope: Scope, batch: WriteBatch): void {
  const foreign = (owner: string, what: string) => {
    if (owner !== scope.userId) {
      throw new ScopeError(
        `write: ${what} belongs to user "${owner}", not to the scope's user "${scope.userId}"`,
      );
    }
  };
  for (const { record } of [...(batch.upsert ?? []), ...(batch.insert ?? [])]) {
    foreign(record.userId, `memory ${record.id}`);
  }
  for (const r of batch.expect ?? []) foreign(r.userId, `expected memory ${r.id}`);
  for (const v of batch.history ?? []) foreign(v.userId, `history of ${v.memoryId}`);
  for (const e of batch.edges ?? []) foreign(e.userId, `edge ${e.from}->${e.to}`);
}
