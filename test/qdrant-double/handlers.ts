import type { Handler } from "./double-state.js";
import { COLLECTION_HANDLERS } from "./handle-collections.js";
import { FACET_HANDLERS } from "./handle-facet.js";
import { PAYLOAD_INDEX_HANDLERS } from "./handle-payload-index.js";
import { POINT_READ_HANDLERS } from "./handle-points-read.js";
import { POINT_WRITE_HANDLERS } from "./handle-points-write.js";
import { QUERY_HANDLERS } from "./handle-query.js";

/** operationId (from the spec) → handler. Operations not listed answer 501 so a test sees the gap. */
export const HANDLERS: ReadonlyMap<string, Handler> = new Map([
  ...COLLECTION_HANDLERS,
  ...FACET_HANDLERS,
  ...PAYLOAD_INDEX_HANDLERS,
  ...POINT_READ_HANDLERS,
  ...POINT_WRITE_HANDLERS,
  ...QUERY_HANDLERS,
]);
