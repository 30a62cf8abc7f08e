import type { StoredPoint } from "./collection.js";
import type { Handler } from "./double-state.js";
import { type Filter, matchesFilter, parseDatetime } from "./filter.js";
import { requireCollection } from "./handle-collections.js";
import { valuesAt } from "./payload-path.js";
import { comparePointIds, normalizePointId, parsePathPointId } from "./point-id.js";
import { toRecord, type WithPayload, type WithVector } from "./point-output.js";
import { badRequest, pointNotFound } from "./qdrant-error.js";

const getPoint: Handler = (context) => {
  const collection = requireCollection(context);
  const id = parsePathPointId(context.params.id ?? "");
  const point = collection.get(id);
  if (!point) throw pointNotFound(id);
  return toRecord(collection, point, true, true, true);
};

const getPoints: Handler = (context) => {
  const collection = requireCollection(context);
  const body = context.body as { ids: unknown[]; with_payload?: WithPayload; with_vector?: WithVector };
  const seen = new Set<string>();
  const records: Record<string, unknown>[] = [];
  for (const raw of body.ids) {
    const id = normalizePointId(raw);
    const point = collection.get(id);
    if (!point || seen.has(String(id))) continue;
    seen.add(String(id));
    records.push(toRecord(collection, point, body.with_payload, body.with_vector, true));
  }
  return records;
};

interface ScrollBody {
  offset?: unknown;
  limit?: number;
  filter?: Filter | null;
  with_payload?: WithPayload;
  with_vector?: WithVector;
  order_by?: string | { key: string; direction?: "asc" | "desc"; start_from?: number | string | null } | null;
}

type OrderBy = Exclude<NonNullable<ScrollBody["order_by"]>, string>;

const RANGE_INDEX_TYPES = new Set(["integer", "float", "datetime"]);

/** One entry per value of the key (a point with several values appears several times, as on the server). */
function orderedEntries(points: StoredPoint[], order: OrderBy): { point: StoredPoint; value: number }[] {
  const entries: { point: StoredPoint; value: number }[] = [];
  for (const point of points) {
    for (const raw of valuesAt(point.payload, order.key) ?? []) {
      const value = typeof raw === "number" ? raw : typeof raw === "string" ? parseDatetime(raw) : undefined;
      if (value !== undefined) entries.push({ point, value });
    }
  }
  const start =
    order.start_from == null
      ? undefined
      : typeof order.start_from === "string"
        ? parseDatetime(order.start_from)
        : order.start_from;
  const descending = order.direction === "desc";
  return entries
    .filter((entry) => start === undefined || (descending ? entry.value <= start : entry.value >= start))
    .sort(
      (a, b) =>
        (descending ? b.value - a.value : a.value - b.value) || comparePointIds(a.point.id, b.point.id),
    );
}

const scrollPoints: Handler = (context) => {
  const collection = requireCollection(context);
  const body = context.body as ScrollBody;
  const limit = body.limit ?? 10;
  const matching = collection.sorted().filter((point) => matchesFilter(body.filter, point));
  const record = (point: StoredPoint) =>
    toRecord(collection, point, body.with_payload, body.with_vector, true);
  if (body.order_by != null) {
    const order = typeof body.order_by === "string" ? { key: body.order_by } : body.order_by;
    if (body.offset != null) {
      throw badRequest(
        "Cannot use an `offset` when using `order_by`. The alternative for paging is to use `order_by.start_from` and a filter to exclude the IDs that you've already seen for the `order_by.start_from` value",
      );
    }
    if (!RANGE_INDEX_TYPES.has(collection.payloadIndexes.get(order.key)?.dataType ?? "")) {
      throw badRequest(
        `No range index for \`order_by\` key: \`${order.key}\`. Please create one to use \`order_by\`. Check https://qdrant.tech/documentation/concepts/indexing/#payload-index to see which payload schemas support Range conditions`,
      );
    }
    const entries = orderedEntries(matching, order).slice(0, limit);
    return {
      points: entries.map(({ point, value }) => ({ ...record(point), order_value: value })),
      next_page_offset: null,
    };
  }
  const from = body.offset == null ? undefined : normalizePointId(body.offset);
  const page =
    from === undefined ? matching : matching.filter((point) => comparePointIds(point.id, from) >= 0);
  const next = page[limit];
  return { points: page.slice(0, limit).map(record), next_page_offset: next ? next.id : null };
};

const countPoints: Handler = (context) => {
  const collection = requireCollection(context);
  const body = context.body as { filter?: Filter | null };
  let count = 0;
  for (const point of collection.points.values()) if (matchesFilter(body.filter, point)) count += 1;
  return { count };
};

export const POINT_READ_HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ["get_point", getPoint],
  ["get_points", getPoints],
  ["scroll_points", scrollPoints],
  ["count_points", countPoints],
]);
