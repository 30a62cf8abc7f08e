import type { Collection } from "./collection.js";
import { type Handler, type HandlerContext, updateResult } from "./double-state.js";
import { requireCollection } from "./handle-collections.js";
import {
  clearPayload,
  deletePayload,
  deletePoints,
  deleteVectors,
  overwritePayload,
  setPayload,
  updateVectors,
  upsertPoints,
} from "./point-updates.js";

// biome-ignore lint/suspicious/noExplicitAny: bodies were validated against the spec before they get here.
type Apply = (collection: Collection, body: any) => void;

/** A write endpoint: the change is applied at once; `wait` only decides the reported status. */
function writeHandler(apply: Apply): Handler {
  return (context: HandlerContext) => {
    apply(requireCollection(context), context.body);
    return updateResult(context);
  };
}

/** Batch operation name → how it applies (`UpdateOperation` variants of the spec). */
const BATCH_OPERATIONS: ReadonlyMap<string, Apply> = new Map<string, Apply>([
  ["upsert", upsertPoints],
  ["delete", deletePoints],
  ["set_payload", setPayload],
  ["overwrite_payload", overwritePayload],
  ["delete_payload", deletePayload],
  ["clear_payload", clearPayload],
  ["update_vectors", updateVectors],
  ["delete_vectors", deleteVectors],
]);

/** Runs the operations in order with no rollback: an error leaves the earlier ones applied, as on the server. */
const batchUpdate: Handler = (context) => {
  const collection = requireCollection(context);
  const body = context.body as { operations: Record<string, unknown>[] };
  // One UpdateResult per operation, as the server answers.
  return body.operations.map((operation) => {
    const [name, payload] = Object.entries(operation).find(([key]) => BATCH_OPERATIONS.has(key)) ?? [];
    const apply = name === undefined ? undefined : BATCH_OPERATIONS.get(name);
    apply?.(collection, payload);
    return updateResult(context);
  });
};

export const POINT_WRITE_HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ["upsert_points", writeHandler(upsertPoints)],
  ["delete_points", writeHandler(deletePoints)],
  ["set_payload", writeHandler(setPayload)],
  ["overwrite_payload", writeHandler(overwritePayload)],
  ["delete_payload", writeHandler(deletePayload)],
  ["clear_payload", writeHandler(clearPayload)],
  ["update_vectors", writeHandler(updateVectors)],
  ["delete_vectors", writeHandler(deleteVectors)],
  ["batch_update", batchUpdate],
]);
