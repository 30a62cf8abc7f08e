import type { Schemas } from "@qdrant/js-client-rest";
import type { QFilter } from "./filter.js";
import type { Payload } from "./payload.js";
import type { QdrantTransport } from "./qdrant-transport.js";
import type { SparseVector } from "./text-vector.js";

export interface Point {
  id: string;
  payload: Payload;
  vector?: { dense?: number[] };
}

export interface NewPoint {
  id: string;
  vector: { dense?: number[]; bm25?: SparseVector };
  payload: Payload;
}

/** One operation of `POST /points/batch`. */
export type Operation =
  | { upsert: { points: NewPoint[]; update_filter?: QFilter } }
  | { delete: { points: string[] } }
  | { delete: { filter: QFilter } }
  | { set_payload: { payload: Payload; filter: QFilter } };

/** Points per request: keeps bodies far below Qdrant's 32 MiB limit with 1,024-dimension vectors. */
const POINTS_PER_REQUEST = 256;
/** Ids per read request. */
const IDS_PER_REQUEST = 1_000;
const SCROLL_PAGE = 1_000;
const FACET_PAGE = 1_000;

type WithPayload = boolean | { include: string[] };

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function opSize(op: Operation): number {
  if ("upsert" in op) return op.upsert.points.length;
  if ("delete" in op && "points" in op.delete) return op.delete.points.length;
  return 1;
}

/** Splits large upserts and deletes so no request carries more than POINTS_PER_REQUEST points. */
function split(ops: readonly Operation[]): Operation[] {
  return ops.flatMap((op): Operation[] => {
    if ("upsert" in op)
      return chunks(op.upsert.points, POINTS_PER_REQUEST).map((points) => ({
        upsert: { ...op.upsert, points },
      }));
    if ("delete" in op && "points" in op.delete) {
      return chunks(op.delete.points, POINTS_PER_REQUEST).map((points) => ({ delete: { points } }));
    }
    return [op];
  });
}

/** Point-level requests against one Qdrant server. */
export class Points {
  constructor(private readonly http: QdrantTransport) {}

  /**
   * Applies the operations in order with `wait=true`, in as few `POST /points/batch` requests as the body
   * limit allows. Qdrant applies one request's operations in order without rollback; every operation here
   * is idempotent, so resending after a failure converges.
   */
  async apply(collection: string, ops: readonly Operation[]): Promise<void> {
    let pending: Operation[] = [];
    let size = 0;
    const flush = async () => {
      if (pending.length === 0) return;
      const operations = pending as Schemas["UpdateOperation"][];
      await this.http.call("batchUpdate", (c) => c.batchUpdate(collection, { wait: true, operations }));
      pending = [];
      size = 0;
    };
    for (const op of split(ops)) {
      if (size + opSize(op) > POINTS_PER_REQUEST) await flush();
      pending.push(op);
      size += opSize(op);
    }
    await flush();
  }

  /** Every point the filter selects, page by page. */
  async scroll(
    collection: string,
    filter: QFilter,
    withPayload: WithPayload = true,
    withVector = false,
  ): Promise<Point[]> {
    const out: Point[] = [];
    let offset: string | number | null = null;
    do {
      const request: Schemas["ScrollRequest"] = {
        filter: filter as Schemas["Filter"],
        limit: SCROLL_PAGE,
        with_payload: withPayload,
        with_vector: withVector ? ["dense"] : false,
        ...(offset === null ? {} : { offset }),
      };
      const page = await this.http.call("scroll", (c) => c.scroll(collection, request));
      out.push(...(page.points as Point[]));
      offset = (page.next_page_offset as string | number | null | undefined) ?? null;
    } while (offset !== null);
    return out;
  }

  /**
   * The first `limit` points by an integer payload field (`order_by`; needs a range index). Qdrant breaks
   * ties arbitrarily and returns no next page, so callers resolve ties at the boundary themselves.
   */
  async ordered(
    collection: string,
    filter: QFilter,
    key: string,
    direction: "asc" | "desc",
    limit: number,
  ): Promise<Point[]> {
    const page = await this.http.call("scroll", (c) =>
      c.scroll(collection, {
        filter: filter as Schemas["Filter"],
        limit,
        order_by: { key, direction },
        with_payload: true,
        with_vector: false,
      }),
    );
    return page.points as Point[];
  }

  /** The points with these ids that the filter also selects (ids in chunks; any number of them). */
  async byIds(
    collection: string,
    ids: readonly string[],
    filter: QFilter,
    withPayload: WithPayload = true,
    withVector = false,
  ): Promise<Point[]> {
    const out: Point[] = [];
    for (const chunk of chunks([...new Set(ids)], IDS_PER_REQUEST)) {
      const scoped: QFilter = { ...filter, must: [...(filter.must ?? []), { has_id: chunk }] };
      out.push(...(await this.scroll(collection, scoped, withPayload, withVector)));
    }
    return out;
  }

  /**
   * Points by id across every tenant (to detect an id another user already holds), with the payload
   * fields named in `include` (all of it: true; none: false), and their dense vectors when asked.
   */
  async retrieve(
    collection: string,
    ids: readonly string[],
    include: string[] | boolean,
    withVector = false,
  ): Promise<Point[]> {
    const out: Point[] = [];
    for (const chunk of chunks([...new Set(ids)], IDS_PER_REQUEST)) {
      const found = await this.http.call("retrieve", (c) =>
        c.retrieve(collection, {
          ids: chunk,
          with_payload: typeof include === "boolean" ? include : { include },
          with_vector: withVector ? ["dense"] : false,
        }),
      );
      out.push(...(found as Point[]));
    }
    return out;
  }

  /**
   * Every value of an indexed keyword field, from the field's index (`POST /facet`) rather than the points:
   * the limit doubles until the answer holds fewer values than asked for, so none is cut off.
   */
  async facetValues(collection: string, key: string): Promise<string[]> {
    for (let limit = FACET_PAGE; ; limit *= 2) {
      const result = await this.http.call("facet", (c) => c.facet(collection, { key, limit, exact: true }));
      if (result.hits.length < limit) return result.hits.map((h) => String(h.value));
    }
  }

  async count(collection: string, filter: QFilter): Promise<number> {
    const result = await this.http.call("count", (c) =>
      c.count(collection, { filter: filter as Schemas["Filter"], exact: true }),
    );
    return result.count;
  }

  /** Nearest points by a named vector; `query` is a dense vector or a sparse one. */
  async query(
    collection: string,
    using: "dense" | "bm25",
    query: number[] | SparseVector,
    filter: QFilter,
    limit: number,
  ): Promise<{ id: string; score: number; payload: Payload }[]> {
    const result = await this.http.call("query", (c) =>
      c.query(collection, {
        query: query as Schemas["QueryInterface"],
        using,
        filter: filter as Schemas["Filter"],
        limit,
        with_payload: { include: ["memory_id"] },
      }),
    );
    return result.points as { id: string; score: number; payload: Payload }[];
  }
}
