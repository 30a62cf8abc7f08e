import type { Schemas } from "@qdrant/js-client-rest";
import { StorageError, UnsupportedError } from "../../errors/index.js";
import type { VectorCollectionConfig } from "./qdrant-options.js";
import type { QdrantTransport } from "./qdrant-transport.js";

/** The oldest Qdrant this backend runs on: sparse vectors with the IDF modifier and the Query API (1.10). */
export const MIN_SERVER_VERSION = "1.10.0";
/** Tenant-aware keyword indexes (`is_tenant`) arrived in 1.11; older servers get a plain keyword index. */
const TENANT_INDEX_SINCE = "1.11.0";
/** The facet API (values of a payload index) arrived in 1.12; older servers are scrolled instead. */
const FACET_SINCE = "1.12.0";
/** An upsert's `update_filter` arrived in 1.16; an older server ignores the field (it keeps unknown fields). */
const UPDATE_FILTER_SINCE = "1.16.0";

export type Version = readonly [number, number, number];

export function parseVersion(text: string): Version | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

export function atLeast(version: Version, minimum: string): boolean {
  const min = parseVersion(minimum) as Version;
  for (let i = 0; i < 3; i++) {
    if (version[i] !== min[i]) return (version[i] as number) > (min[i] as number);
  }
  return true;
}

type IndexType = "tenant" | "keyword" | "integer" | "float";

/** The payload-only collections, with the payload index of every field a request filters on. */
const PAYLOAD_COLLECTIONS: Record<string, Record<string, IndexType>> = {
  history: { user_id: "tenant", memory_id: "keyword" },
  edges: { user_id: "tenant", src: "keyword", dst: "keyword", type: "keyword" },
  kv: { user_id: "tenant", ns_prefixes: "keyword" },
  jobs: {
    user_id: "tenant",
    status: "keyword",
    type: "keyword",
    dedupe_key: "keyword",
    run_ms: "integer",
    lease_ms: "integer",
    updated_ms: "integer",
    rev: "integer",
  },
  // Store-wide settings, one point each, read by id: nothing to index.
  settings: {},
};

/** Indexes of the filter payload, shared by the records collection and each vector collection. */
const FILTER_INDEXES: Record<string, IndexType> = {
  user_id: "tenant",
  memory_id: "keyword",
  cube: "keyword",
  agent_id: "keyword",
  session_id: "keyword",
  kind: "keyword",
  tier: "keyword",
  role: "keyword",
  key: "keyword",
  meta: "keyword",
  // Metadata ranges: a nested filter over meta_num's {k, v} elements; meta_v marks points that have them.
  "meta_num[].k": "keyword",
  "meta_num[].v": "float",
  meta_v: "integer",
  valid_ms: "integer",
  created_ms: "integer",
  expired_ms: "integer",
};

/** The records collection also orders scans by event time. */
const MEMORY_INDEXES: Record<string, IndexType> = { ...FILTER_INDEXES, order_ms: "integer" };

/** Names of the backend's collections under one prefix. */
export function collectionNames(prefix: string) {
  return {
    memories: `${prefix}memories`,
    history: `${prefix}history`,
    edges: `${prefix}edges`,
    kv: `${prefix}kv`,
    jobs: `${prefix}jobs`,
    settings: `${prefix}settings`,
    /** Dense vectors of one dimension: one collection per embedding size (per embedding model). */
    vectors: (dimensions: number) => `${prefix}vectors_${dimensions}`,
  };
}

const VECTOR_COLLECTION = /^vectors_\d+$/;
const FIXED = new Set(["memories", ...Object.keys(PAYLOAD_COLLECTIONS)]);

/** True for this store's collections only: another store whose prefix extends ours is not ours. */
export function isOwnCollection(prefix: string, name: string): boolean {
  if (!name.startsWith(prefix)) return false;
  const rest = name.slice(prefix.length);
  return FIXED.has(rest) || VECTOR_COLLECTION.test(rest);
}

/** Reads the server version from `GET /` and refuses a server older than the minimum. */
export async function checkServer(http: QdrantTransport, url: string): Promise<Version> {
  const info = await http
    .call("connect", (c) => c.versionInfo())
    .catch((cause: unknown) => {
      throw new StorageError(`cannot connect to Qdrant at ${url}: ${(cause as Error).message}`, { cause });
    });
  const version = parseVersion(String((info as { version?: string } | undefined)?.version ?? ""));
  if (!version) throw new StorageError(`the server at ${url} did not report a Qdrant version on GET /`);
  if (!atLeast(version, MIN_SERVER_VERSION)) {
    throw new UnsupportedError(
      `Qdrant ${version.join(".")} at ${url} is too old: the Qdrant backend needs ${MIN_SERVER_VERSION} or newer (sparse vectors with the IDF modifier and the Query API); upgrade the server`,
    );
  }
  return version;
}

export class Collections {
  readonly names;
  /** Names of existing collections with the prefix, as last listed or created. */
  private readonly existing = new Set<string>();
  /** Collections whose payload indexes this process made or found complete. */
  private readonly indexed = new Set<string>();
  /** The listing under way, shared by every lookup that misses meanwhile. */
  private listing: Promise<void> | null = null;

  constructor(
    private readonly http: QdrantTransport,
    private readonly prefix: string,
    readonly version: Version,
    /** Cluster settings (`shard_number`, ...) merged into every create request. */
    private readonly settings: Readonly<Record<string, number | boolean>> = {},
    /** How vector collections keep their vectors (on disk, quantized, HNSW shape). */
    private readonly vectorSettings: VectorCollectionConfig = { dense: {}, collection: {} },
  ) {
    this.names = collectionNames(prefix);
  }

  /** Whether the server answers `POST /facet`. */
  get hasFacet(): boolean {
    return atLeast(this.version, FACET_SINCE);
  }

  /** Whether the server honours an upsert's `update_filter` (stores over only the points it selects). */
  get hasUpdateFilter(): boolean {
    return atLeast(this.version, UPDATE_FILTER_SINCE);
  }

  /** Creates whatever of the fixed collections is missing (idempotent: a 409 from a racing creator is fine). */
  async ensure(): Promise<void> {
    await this.list();
    await this.create(
      this.names.memories,
      { vectors: {}, sparse_vectors: { bm25: { modifier: "idf" } } },
      MEMORY_INDEXES,
    );
    for (const [name, indexes] of Object.entries(PAYLOAD_COLLECTIONS)) {
      await this.create(`${this.prefix}${name}`, { vectors: {} }, indexes);
    }
  }

  /**
   * Re-lists the server's collections: another process may have created a vector collection (a new
   * embedding size) since this one connected. Lookups that miss while a listing is under way share it.
   */
  async refresh(): Promise<void> {
    this.listing ??= this.list().finally(() => {
      this.listing = null;
    });
    return this.listing;
  }

  private async list(): Promise<void> {
    const listed = await this.http.call("listCollections", (c) => c.getCollections());
    for (const { name } of listed.collections)
      if (isOwnCollection(this.prefix, name)) this.existing.add(name);
  }

  /**
   * Whether the collection exists. A known one is answered from memory; an unknown one re-lists the
   * server's collections first, so a collection another process created since is found.
   */
  async knows(name: string): Promise<boolean> {
    if (!this.existing.has(name)) await this.refresh();
    return this.existing.has(name);
  }

  /** The vector collection for this dimension, created on first use (Dot product over unit vectors). */
  async vectors(dimensions: number): Promise<string> {
    const name = this.names.vectors(dimensions);
    const { dense, collection } = this.vectorSettings;
    await this.create(
      name,
      { vectors: { dense: { size: dimensions, distance: "Dot", ...dense } }, ...collection },
      FILTER_INDEXES,
    );
    return name;
  }

  /** Existing vector collections, by name. */
  vectorCollections(): string[] {
    return [...this.existing].filter((n) => VECTOR_COLLECTION.test(n.slice(this.prefix.length)));
  }

  all(): string[] {
    return [...this.existing];
  }

  private async create(name: string, config: object, indexes: Record<string, IndexType>): Promise<void> {
    if (this.indexed.has(name)) return;
    if (this.existing.has(name)) {
      // Listed, made by another process: its indexes may still be under way (a scan ordered by a field
      // without its index is refused), so the missing ones are made here too.
      const info = await this.http.call("getCollection", (c) => c.getCollection(name));
      const missing = Object.entries(indexes).filter(([field]) => !(field in (info.payload_schema ?? {})));
      await this.createIndexes(name, missing);
      this.indexed.add(name);
      return;
    }
    try {
      const request = { ...this.settings, ...config } as Schemas["CreateCollection"];
      await this.http.call("createCollection", (c) => c.createCollection(name, request));
    } catch (error) {
      // Another process created it between our listing and this call: it exists, which is what we want.
      if ((error as StorageError).details?.status !== 409) throw error;
    }
    // Indexes right after creation: the HNSW graph is payload-aware only for fields indexed before data.
    await this.createIndexes(name, Object.entries(indexes));
    this.existing.add(name);
    this.indexed.add(name);
  }

  private async createIndexes(name: string, indexes: readonly [string, IndexType][]): Promise<void> {
    for (const [field, type] of indexes) {
      // The client sends no `wait` here unless told, and the server's default is not to wait.
      await this.http.call("createPayloadIndex", (c) =>
        c.createPayloadIndex(name, { wait: true, field_name: field, field_schema: this.schema(type) }),
      );
    }
  }

  private schema(type: IndexType): Schemas["PayloadFieldSchema"] {
    if (type === "integer" || type === "float") return type;
    if (type === "tenant" && atLeast(this.version, TENANT_INDEX_SINCE))
      return { type: "keyword", is_tenant: true };
    return "keyword";
  }
}
