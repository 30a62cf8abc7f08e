import type { Handler } from "./double-state.js";
import { type Filter, matchesFilter } from "./filter.js";
import { requireCollection } from "./handle-collections.js";
import { valuesAt } from "./payload-path.js";
import { badRequest } from "./qdrant-error.js";

// Facet reads the values of a payload index, so the server refuses a key without one of these.
const FACET_INDEX_TYPES = new Set(["keyword", "integer", "uuid", "bool"]);

interface FacetBody {
  key: string;
  limit?: number | null;
  filter?: Filter | null;
  exact?: boolean | null;
}

/** `POST /collections/{c}/facet`: points per value of an indexed key, most points first, then by value. */
const facet: Handler = (context) => {
  const collection = requireCollection(context);
  const body = context.body as FacetBody;
  const index = collection.payloadIndexes.get(body.key);
  if (!index || !FACET_INDEX_TYPES.has(index.dataType)) {
    throw badRequest(
      `Index required but not found for "${body.key}" of one of the following types: [keyword, integer, uuid, bool]. ` +
        "Help: Create an index for this key or use a different filter.",
    );
  }
  const counts = new Map<string, { value: unknown; count: number }>();
  for (const point of collection.points.values()) {
    if (!matchesFilter(body.filter, point)) continue;
    // A point counts once per distinct value it holds.
    const values = new Map((valuesAt(point.payload, body.key) ?? []).map((v) => [JSON.stringify(v), v]));
    for (const [key, value] of values) {
      if (typeof value === "object" && value !== null) continue;
      const entry = counts.get(key) ?? { value, count: 0 };
      entry.count += 1;
      counts.set(key, entry);
    }
  }
  const hits = [...counts.values()].sort(
    (a, b) => b.count - a.count || String(a.value).localeCompare(String(b.value)),
  );
  return { hits: hits.slice(0, body.limit ?? 10) };
};

export const FACET_HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([["facet", facet]]);
