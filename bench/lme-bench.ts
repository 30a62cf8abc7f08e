// The LongMemEval part of `pnpm bench`: on the LongMemEval_S dev questions, what a 1,500-token context
// holds when each system gets a question's whole history (dozens of sessions, long assistant answers) and
// is asked on the question's date. Engram through `retrieve`; its peers (BM25 alone, LangGraph's
// InMemoryStore, mem0 OSS with `infer: false`) by their top hits pasted into the same context renderer
// while the budget lasts. One process, one offline embedder for the peers that embed. Alone:
//   pnpm tsx --conditions=@engram/source bench/lme-bench.ts [--data FILE] [--limit N] [--out DIR]
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  chronologicalSessions,
  evalLongMemEval,
  isoDate,
  LONGMEMEVAL_TYPES,
  type LongMemEvalSession,
  type LongMemEvalSystem,
  readLongMemEval,
  runLongMemEval,
  selectQuestions,
} from "@engram/cli/longmemeval";
import { type ContextPage, DEFAULT_CONTEXT_BUDGET, type Embedder } from "@engram/core";
import { assembleContext, EMBEDDED_CHARS, embeddedPart } from "@engram/core/integration";
import { InMemoryStore } from "@langchain/langgraph";
import Database from "better-sqlite3";
import { type RememberingEmbedder, rememberingEmbedder, SharedEmbeddings } from "./locomo-embedder.js";
import { ftsQuery } from "./peer-fts5.js";
import { guardFetch } from "./peer-mem0.js";

type Doc = Record<string, unknown> & {
  context_evidence_recall: number;
  session_recall_all_5: number;
  turn_recall_10: number;
  halves: { tune: { context_evidence_recall: number }; check: { context_evidence_recall: number } };
  by_type: Record<string, { context_evidence_recall: number }>;
};

export interface LmeSystemFigures {
  readonly system: string;
  readonly method: string;
  readonly context: "retrieve" | "top hits";
  readonly doc: Doc;
}

export interface LmeBenchResults {
  readonly data: string;
  readonly questions: number;
  readonly turns: number;
  readonly budgetTokens: number;
  readonly embedder: string;
  readonly systems: readonly LmeSystemFigures[];
  readonly mem0NetworkAttempts: readonly string[];
  readonly seconds: number;
}

/** A turn as the peers index it: the speaker's role, then what was said. */
const peerDocument = (t: { role: string; content: string }) => `${t.role}: ${t.content}`;

/**
 * A peer's hits pasted into Engram's own context renderer (same tokenizer and budget; dates once, turns in
 * rank order while the budget lasts), with no profile, facts or recent turns.
 */
function hitsContext(
  sessions: readonly LongMemEvalSession[],
  ids: readonly (string | null)[],
  now: string,
  budgetTokens: number,
) {
  const byId = new Map(sessions.flatMap((s) => s.turns.map((t) => [t.id, t] as const)));
  const pages: ContextPage[] = ids.flatMap((id, rank) => {
    const t = id === null ? undefined : byId.get(id);
    if (!t) return [];
    return [
      {
        id: t.id,
        text: t.content,
        role: t.role,
        name: null,
        at: t.at,
        score: ids.length - rank,
        sessionId: t.sessionId,
      },
    ];
  });
  const block = assembleContext({ now, profile: [], facts: [], pages, recent: [], budgetTokens });
  return { text: block.text, tokens: block.tokens };
}

/**
 * The shared embedder under Engram's own embedding policy: each text's first EMBEDDED_CHARS characters,
 * cut at a word. USE-lite costs about a millisecond a token, and embedding the whole of 30,000 turns for
 * each peer would take an hour; Engram's vectors are made the same way.
 */
function embeddingPolicy(inner: RememberingEmbedder): RememberingEmbedder {
  const self: RememberingEmbedder = {
    id: `${inner.id} (first ${EMBEDDED_CHARS} characters)`,
    get live() {
      return inner.live;
    },
    set live(value) {
      inner.live = value;
    },
    embed: (texts) => inner.embed(texts.map((t) => embeddedPart(t))),
  };
  return self;
}

/** A peer that indexes one question's turns at a time and is searched by turn ids. */
interface TurnIndex {
  index(sessions: readonly LongMemEvalSession[]): Promise<void>;
  search(question: string, k: number): Promise<string[]>;
  close(): Promise<void>;
}

export function peerSystem(open: () => Promise<TurnIndex>): LongMemEvalSystem & { close(): Promise<void> } {
  let current: { id: string; index: TurnIndex; sessions: readonly LongMemEvalSession[] } | null = null;
  const close = async () => {
    await current?.index.close();
    current = null;
  };
  return {
    async ingest(item, sessions) {
      await close();
      const index = await open();
      await index.index(sessions);
      current = { id: item.question_id, index, sessions };
    },
    async search(item, k) {
      return current ? current.index.search(item.question, k) : [];
    },
    async context(item, budgetTokens) {
      const ids = current ? await current.index.search(item.question, 60) : [];
      return hitsContext(current?.sessions ?? [], ids, isoDate(item.question_date), budgetTokens);
    },
    close,
  };
}

const turnsOf = (sessions: readonly LongMemEvalSession[]) => sessions.flatMap((s) => s.turns);

/** BM25 alone: an FTS5 table of the question's turns, its words OR-ed, ranked by bm25(). */
export const bm25Index = async (): Promise<TurnIndex> => {
  const db = new Database(":memory:");
  db.exec("CREATE VIRTUAL TABLE turns USING fts5(text, id UNINDEXED)");
  const search = db.prepare("SELECT id FROM turns WHERE turns MATCH ? ORDER BY bm25(turns) LIMIT ?");
  return {
    async index(sessions) {
      const insert = db.prepare("INSERT INTO turns (text, id) VALUES (?, ?)");
      db.transaction(() => {
        for (const t of turnsOf(sessions)) insert.run(peerDocument(t), t.id);
      })();
    },
    async search(question, k) {
      const query = ftsQuery(question);
      return query ? (search.all(query, k) as { id: string }[]).map((r) => r.id) : [];
    },
    async close() {
      db.close();
    },
  };
};

/** Dense search alone, as a LangGraph agent gets it: the InMemoryStore with the shared embedder. */
const langgraphIndex = (embedder: Embedder, dims: number) => async (): Promise<TurnIndex> => {
  const store = new InMemoryStore({
    index: { dims, embeddings: new SharedEmbeddings(embedder), fields: ["text"] },
  });
  return {
    async index(sessions) {
      await store.batch(
        turnsOf(sessions).map((t) => ({ namespace: ["lme"], key: t.id, value: { text: peerDocument(t) } })),
      );
    },
    async search(question, k) {
      return (await store.search(["lme"], { query: question, limit: k })).map((item) => item.key);
    },
    async close() {
      await store.stop();
    },
  };
};

/** mem0 OSS, `infer: false` (storing a turn as given needs no LLM), its in-memory vector store. */
const mem0Index = (embedder: Embedder, dims: number, dir: string) => async (): Promise<TurnIndex> => {
  process.env.MEM0_TELEMETRY = "false";
  process.env.MEM0_DIR = join(dir, "mem0");
  mkdirSync(process.env.MEM0_DIR, { recursive: true });
  const { Memory } = await import("mem0ai/oss");
  const memory = new Memory({
    version: "v1.1",
    embedder: { provider: "langchain", config: { model: new SharedEmbeddings(embedder) } },
    vectorStore: {
      provider: "memory",
      config: { collectionName: "lme", dimension: dims, dbPath: ":memory:" },
    },
    // Required by the config; never called with infer: false (a dead loopback port if it were).
    llm: { provider: "openai", config: { apiKey: "unused", baseURL: "http://127.0.0.1:9/v1" } },
    disableHistory: true,
  });
  return {
    async index(sessions) {
      for (const t of turnsOf(sessions)) {
        await memory.add(peerDocument(t), { userId: "lme", infer: false, metadata: { turn: t.id } });
      }
    },
    async search(question, k) {
      const found = await memory.search(question, { filters: { user_id: "lme" }, topK: k, threshold: 0 });
      return found.results.map((r) => String(r.metadata?.turn));
    },
    async close() {},
  };
};

export interface LmeBenchOptions {
  readonly data: string;
  /** The first N questions of each type (all by default). */
  readonly limit?: number;
  readonly log?: (message: string) => void;
  /** Engram's figures as soon as they are measured, before the peers run. */
  readonly onEngram?: (doc: Record<string, unknown>) => void;
}

export async function lmeBench(options: LmeBenchOptions): Promise<LmeBenchResults | null> {
  const log = options.log ?? (() => {});
  if (!existsSync(options.data)) {
    log(`LongMemEval: ${options.data} not found, part skipped`);
    return null;
  }
  const started = performance.now();
  const items = await readLongMemEval(options.data);
  const questions = selectQuestions(items, options.limit === undefined ? {} : { limit: options.limit });
  const turns = questions.reduce(
    (n, q) => n + q.item.haystack_sessions.reduce((m, s) => m + s.filter((t) => t.content.trim()).length, 0),
    0,
  );
  const dir = mkdtempSync(join(tmpdir(), "engram-lme-"));
  const budgetTokens = DEFAULT_CONTEXT_BUDGET;
  const progress = (name: string) => (phase: string, done: number, total: number) => {
    if (phase === "query" && (done === total || done % 10 === 0))
      log(`  ${name}: ${done}/${total} questions`);
  };
  const systems: LmeSystemFigures[] = [];
  const guard = guardFetch("LongMemEval");
  try {
    // Engram first, with its own embedder: its ingest pays for every vector it stores.
    log(`LongMemEval: Engram, ${questions.length} questions, ${turns} turns`);
    const engram = (await evalLongMemEval({
      dataPath: options.data,
      dbPath: join(dir, "engram.db"),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      onProgress: progress("Engram"),
    })) as Doc;
    systems.push({
      system: "Engram",
      method:
        "engram.add per session in date order (tier work after each), engram.search k 50 for recall, engram.retrieve({ budgetTokens: 1500 }) with now = the question's date for the context.",
      context: "retrieve",
      doc: engram,
    });
    options.onEngram?.(engram);
    const embedder = embeddingPolicy(rememberingEmbedder());
    const dims = ((await embedder.embed(["dimensions"]))[0] as Float32Array).length;
    // Every peer text embedded once, in large batches on both of the model's threads: LangGraph's store
    // and mem0 embed a turn at a time, and then read the remembered vectors.
    const texts = questions.flatMap(({ item }) =>
      chronologicalSessions(item).flatMap((s) => s.turns.map(peerDocument)),
    );
    for (let at = 0; at < texts.length; at += 2048) {
      await embedder.embed(texts.slice(at, at + 2048));
      log(`  peers' texts embedded: ${Math.min(texts.length, at + 2048)}/${texts.length}`);
    }
    const peers: { name: string; method: string; open: () => Promise<TurnIndex> }[] = [
      {
        name: "BM25 (FTS5)",
        method:
          "better-sqlite3 :memory:, one FTS5 table (unicode61) per question over `role: content`; the question's distinct words OR-ed, ORDER BY bm25().",
        open: bm25Index,
      },
      {
        name: "LangGraph InMemoryStore",
        method: `@langchain/langgraph InMemoryStore({ index: { dims: ${dims}, embeddings, fields: ["text"] } }), one per question; batch put of { text: "role: content" } (its first ${EMBEDDED_CHARS} characters embedded, as Engram embeds); search(namespace, { query, limit }).`,
        open: langgraphIndex(embedder, dims),
      },
      {
        name: "mem0 OSS (infer: false)",
        method: `mem0ai/oss Memory per question: embedder provider "langchain" (the shared embedder, first ${EMBEDDED_CHARS} characters of a text), vectorStore "memory" (:memory:), history off, telemetry off; add("role: content", { userId, infer: false }); search(question, { topK, threshold: 0 }).`,
        open: mem0Index(embedder, dims, dir),
      },
    ];
    for (const peer of peers) {
      log(`LongMemEval: ${peer.name}`);
      const system = peerSystem(peer.open);
      try {
        const doc = (await runLongMemEval(questions, system, {
          budgetTokens,
          onProgress: progress(peer.name),
        })) as Doc;
        systems.push({ system: peer.name, method: peer.method, context: "top hits", doc });
      } finally {
        await system.close();
      }
    }
    return {
      data: options.data,
      questions: questions.length,
      turns,
      budgetTokens,
      embedder: embedder.id,
      systems,
      mem0NetworkAttempts: [...guard.attempts],
      seconds: Math.round((performance.now() - started) / 1000),
    };
  } finally {
    guard.restore();
    rmSync(dir, { recursive: true, force: true });
  }
}

const f2 = (x: unknown) => (typeof x === "number" ? x.toFixed(2) : "-");
const abbreviation = (type: string) =>
  type
    .split("-")
    .map((w) => w[0])
    .join("");

/** The peer table (context evidence overall, per half and per type; search recall) and Engram's timings. */
export function lmeTables(results: LmeBenchResults): string {
  const types = LONGMEMEVAL_TYPES.filter((t) => results.systems[0]?.doc.by_type[t]);
  const rows = results.systems.map(({ system, context, doc }) =>
    [
      system,
      context,
      f2(doc.context_evidence_recall),
      f2(doc.halves.tune.context_evidence_recall),
      f2(doc.halves.check.context_evidence_recall),
      ...types.map((t) => f2(doc.by_type[t]?.context_evidence_recall)),
      f2(doc.session_recall_all_5),
      f2(doc.turn_recall_10),
    ].join(" | "),
  );
  const engram = results.systems.find((s) => s.system === "Engram")?.doc;
  const best = Math.max(
    ...results.systems.filter((s) => s.system !== "Engram").map((s) => s.doc.context_evidence_recall),
  );
  return [
    `LongMemEval_S dev, ${results.questions} questions, ${results.turns.toLocaleString("en")} turns, context budget ${results.budgetTokens} tokens, embedder ${results.embedder}:`,
    "",
    `| system | context | evidence in context | tune half | check half | ${types.map(abbreviation).join(" | ")} | session recall_all@5 | turn recall@10 |`,
    `| --- | --- | --- | --- | --- | ${types.map(() => "---").join(" | ")} | --- | --- |`,
    ...rows.map((r) => `| ${r} |`),
    "",
    engram
      ? `Engram: ingest ${engram.ingest_turns_per_s} turns/s (embedding and tier work), search p50 ${engram.search_ms_p50} ms, retrieve p50 ${engram.retrieve_ms_p50} ms / p95 ${engram.retrieve_ms_p95} ms (query embedding included); evidence in context ${f2(engram.context_evidence_recall)} against the best peer's ${f2(best)} (+${f2(engram.context_evidence_recall - best)}).`
      : "",
    results.mem0NetworkAttempts.length
      ? `mem0 tried the network ${results.mem0NetworkAttempts.length} times (refused).`
      : "mem0 made no network call.",
  ].join("\n");
}

export async function writeLmeResults(results: LmeBenchResults, out: string): Promise<string[]> {
  await mkdir(out, { recursive: true });
  const slim = {
    ...results,
    systems: results.systems.map((s) => ({ ...s, doc: { ...s.doc, per_question: undefined } })),
  };
  await writeFile(join(out, "longmemeval.json"), `${JSON.stringify(slim, null, 2)}\n`);
  return ["longmemeval.json"];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({
    options: {
      data: {
        type: "string",
        default: fileURLToPath(
          new URL("../../shared/data/longmemeval/longmemeval-s-dev.json.gz", import.meta.url),
        ),
      },
      limit: { type: "string" },
      out: { type: "string", default: "docs/benchmarks" },
    },
  });
  const log = (message: string) => console.error(`[bench] ${message}`);
  const results = await lmeBench({
    data: values.data as string,
    ...(values.limit ? { limit: Number(values.limit) } : {}),
    log,
  });
  if (results) {
    const files = await writeLmeResults(results, values.out as string);
    console.log(lmeTables(results));
    log(`wrote ${files.join(", ")} to ${values.out} in ${results.seconds} s`);
  }
}
