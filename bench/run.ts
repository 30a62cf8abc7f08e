// `pnpm bench`: ingest throughput, embedding throughput and search latency at 1k-100k memories per scope
// and over many users, then the LoCoMo peer table and ablation (bench/locomo-bench.ts), then LongMemEval's
// context against its peers (bench/lme-bench.ts), then the procedural benchmark (bench/skills.ts), then the
// persisted vector index's cold and warm figures (bench/vector-index.ts), the import part and the offline
// extractor on the persona-facts statements (bench/facts-bench.ts). Writes docs/benchmarks/results.json,
// locomo.json, longmemeval.json, skills.json, vector-index.json, import.json, persona-facts.json and SVG
// plots, prints a summary. `--only scale` (a million memories, bench/scale-bench.ts; minutes to build, so
// never part of the default run) writes scale.json. Usage:
//   pnpm bench [--quick] [--only perf|locomo|lme|skills|vindex|import|facts|scale] [--data FILE] [--lme FILE] [--out DIR]
//              [--keep] [--locomo-store DIR] [--skills-seed N]
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { AI_SDK_METHOD, aiSdkBench } from "./ai-sdk.js";
import { aiSdkGoal } from "./ai-sdk-report.js";
import { type BenchConfig, FULL, QUICK } from "./bench-config.js";
import { type BenchData, loadBenchData, otherQuestions, spread } from "./bench-data.js";
import { writePlots } from "./bench-plots.js";
import { reportTables, toText } from "./bench-report.js";
import { type BenchResults, type CorpusBuild, goals } from "./bench-results.js";
import { buildCorpus, type Pool } from "./corpus.js";
import { type EmbeddedTexts, embedTexts } from "./embed-bench.js";
import type { EmbedderCheck } from "./embedder-check.js";
import { factsBench, factsTables, writeFactsResults } from "./facts-bench.js";
import { importBench, importTables } from "./import-bench.js";
import { ingestBench, tierBench } from "./ingest-bench.js";
import { langgraphBench, langgraphSizes, langgraphTable } from "./langgraph.js";
import { lmeBench, lmeTables, writeLmeResults } from "./lme-bench.js";
import { type LocomoBenchResults, locomoBench, writeLocomoResults } from "./locomo-bench.js";
import { locomoTables, retrieveGoal } from "./locomo-report.js";
import { QDRANT_METHOD, qdrantBench } from "./qdrant.js";
import { qdrantTable } from "./qdrant-report.js";
import { SCALE_METHOD, scaleBench, scaleTable } from "./scale-bench.js";
import { measureSearch, type Query, type SearchFigures } from "./search-bench.js";
import { type SkillsFigures, skillsBench, skillsTables } from "./skills.js";
import { type MachineInfo, machineInfo } from "./stats.js";
import { VECTOR_INDEX_METHOD, vectorIndexBench, vectorIndexTable } from "./vector-index.js";

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    data: { type: "string", default: here("../../shared/data/locomo/locomo-dev.json") },
    out: { type: "string", default: here("../docs/benchmarks") },
    keep: { type: "boolean", default: false },
    only: { type: "string" },
    "locomo-store": { type: "string" },
    lme: { type: "string", default: here("../../shared/data/longmemeval/longmemeval-s-dev.json.gz") },
    "skills-seed": { type: "string", default: "11" },
  },
});
const PARTS = ["perf", "locomo", "lme", "skills", "vindex", "import", "facts", "scale"] as const;
if (values.only !== undefined && !(PARTS as readonly string[]).includes(values.only)) {
  throw new Error(`--only takes ${PARTS.join(", ")}, not ${values.only}`);
}
const runs = (part: (typeof PARTS)[number]) =>
  values.only === part || (values.only === undefined && part !== "scale");
const config: BenchConfig = values.quick ? QUICK : FULL;
const log = (message: string): void => void console.error(`[bench] ${message}`);

/** The embedder check runs in its own process so the model's load time and memory are measured cold. */
async function runEmbedderCheck(): Promise<EmbedderCheck> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...process.execArgv, here("embedder-check.ts"), "--json", "--data", values.data as string],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout) as EmbedderCheck;
}

const label = (users: number, perUser: number): string =>
  users === 1
    ? `1 user, ${perUser.toLocaleString("en")} memories`
    : `${users.toLocaleString("en")} users x ${perUser}`;

async function searchScenarios(dir: string, pool: Pool, embedded: EmbeddedTexts, data: BenchData) {
  const asked = spread(data.questions, config.questions);
  const queries: Query[] = asked.map((text, i) => ({
    text,
    vector: embedded.questionVectors[i] as Float32Array,
  }));
  const warmup = otherQuestions(data.questions, asked, config.questions);
  const specs = [
    ...config.scopeSizes.map((size) => ({ users: 1, perUser: size })),
    { users: config.manyUsers.users, perUser: config.manyUsers.perUser },
  ];
  const search: SearchFigures[] = [];
  const corpusBuild: CorpusBuild[] = [];
  for (const [i, { users, perUser }] of specs.entries()) {
    const scenario = label(users, perUser);
    const path = join(dir, `search-${i}.db`);
    log(`building ${scenario}`);
    const corpus = await buildCorpus({ path, users, perUser, pool, sigma: config.sigma, seed: 7 + i });
    corpusBuild.push({
      scenario,
      memories: corpus.memories,
      seconds: corpus.seconds,
      turnsPerSec: Math.round(corpus.memories / corpus.seconds),
    });
    log(`searching ${scenario}`);
    const queryUsers = users === 1 ? corpus.userIds : spread(corpus.userIds, config.manyUsers.queried);
    search.push(
      await measureSearch({
        scenario,
        corpus,
        queryUsers,
        queries,
        warmup,
        embedder: embedded.embedder,
        counts: config.counts,
      }),
    );
    if (!values.keep) for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
  }
  return { search, corpusBuild };
}

const method = {
  corpus:
    `Memories are written through the storage port as engram.add writes them (record with the previous turn as context, history row, vector), one 100-turn session per write; ` +
    `engram.add itself is not used because it embeds each turn and cannot take the precomputed, noise-added vectors. Texts are LoCoMo dev turns drawn at random from a pool of ${config.poolSize} turns embedded once with USE-lite; ` +
    `each memory's vector is its pool turn's vector plus Gaussian noise of relative size ${config.sigma}, renormalised (cosine to the pool vector ~0.89).`,
  queries: `${config.questions} LoCoMo dev questions, taken evenly across the file, with their USE-lite vectors; queries cycle through them.`,
  warmup: `Before measuring, each scope answers ${config.questions} other LoCoMo dev questions (none of the measured ones), as a live scope has answered earlier questions: the HNSW graph, SQLite's page cache and the remembered scores of the scope's common terms are warm. The first 100 of them are timed apart (firstQueries): a term common in the scope is scored once, by the first query that uses it.`,
  excludingEmbedding:
    "engram.search({ userId, query, limit: 10, queryVector }) with default options: full-text and vector channels (hits and statistics as the engine's fusion settings say), fusion, records read back. Each query also runs the two channels alone, right after, each asked exactly what the engine asked it for the previous question (recorded at the storage port; the query just made would be answered from what its own search remembers): full-text textSearch then textStats, vector vectorSearch then vectorStats.",
  includingEmbedding:
    "the same call without queryVector: the query is embedded with USE-lite inside the call.",
  firstSearch:
    "the first search of a scope after opening the store: loads that user's vectors of small kinds from SQLite into memory and, for a kind of 5,000 vectors or more, builds the persisted HNSW index (the corpus is new, so no index file exists yet; --only vindex times opens with the file in place).",
  ingest:
    "engram.add with embedder null (raw path: validation, SQLite write with FTS5 and history, context window); one user, LoCoMo dev turn texts.",
  tierProcessing:
    "engram.add queues tier work (short-term overflow into segments, summaries, promotion) for later; one user's turns are added without the background worker, then flush() runs that work and is timed.",
  addInScope:
    "engram.add of one message (embedder null, durability full) into a queried scope after the search figures, continuing one session.",
  cpu: "CPU figures are this process's user+system CPU time; they are not inflated by other processes sharing the cores, wall times are.",
};

/** Ingest, embedding, search, checkpoint, middleware and adapter figures; goals are added by main. */
async function perfBench(dir: string, machine: MachineInfo, started: number) {
  log("embedder check (fresh process)");
  const embedderCheck = await runEmbedderCheck();
  const data = await loadBenchData(values.data as string);
  const poolTurns = spread(data.turns, config.poolSize);
  log(`embedding ${poolTurns.length} turns and ${config.questions} questions with USE-lite`);
  const embedded = await embedTexts(
    poolTurns.map((t) => t.text),
    spread(data.questions, config.questions),
  );
  log("raw ingest");
  const ingest = await ingestBench({ dir, turns: data.turns, ...config.ingest });
  log("tier processing");
  const tierProcessing = await tierBench({ dir, turns: data.turns, count: config.tierTurns });
  log("langgraph checkpoints (EngramCheckpointer and SqliteSaver)");
  const lg = { dir, ...langgraphSizes(config.mode === "quick") };
  const checkpoints = await langgraphBench(lg);
  const pool: Pool = { turns: poolTurns, vectors: embedded.turnVectors };
  const { search, corpusBuild } = await searchScenarios(dir, pool, embedded, data);
  log("AI SDK middleware overhead");
  const questions = spread(data.questions, config.questions);
  const warmup = otherQuestions(data.questions, questions, config.questions);
  const aiSdk = await aiSdkBench({ dir, pool, embedded, questions, warmup, counts: config.counts });
  log("Qdrant adapter overhead (protocol double)");
  const qdrant = await qdrantBench({ turns: data.turns });
  const results = {
    machine,
    mode: config.mode,
    durationSeconds: Math.round((performance.now() - started) / 1000),
    method: { ...method, aiSdk: AI_SDK_METHOD, qdrant: QDRANT_METHOD },
    embedderCheck,
    embedding: embedded.figures,
    ingest,
    tierProcessing,
    corpusBuild,
    search,
    aiSdk,
    qdrant,
    goals: [...goals(ingest, search), ...[aiSdkGoal(aiSdk)].filter((g) => g !== null)],
  };
  return { results, checkpoints, lg, qdrant };
}

async function writePerf(perf: Awaited<ReturnType<typeof perfBench>>, locomo: LocomoBenchResults | null) {
  const out = values.out as string;
  const results: BenchResults = {
    ...perf.results,
    goals: [...perf.results.goals, ...(locomo ? [retrieveGoal(locomo)] : [])],
  };
  await writeFile(join(out, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  const plots = await writePlots(results, out);
  await writeFile(join(out, "langgraph.json"), `${JSON.stringify(perf.checkpoints, null, 2)}\n`);
  console.log(toText(reportTables(results)));
  console.log(`\n${langgraphTable(perf.checkpoints, perf.lg)}`);
  console.log(`\n${qdrantTable(perf.qdrant)}`);
  return ["results.json", "langgraph.json", ...plots];
}

/** The persisted vector index (bench/vector-index.ts); corpora and embeddings cached under .engram/bench. */
async function vectorIndex(machine: MachineInfo) {
  log(
    `vector index, load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
  const data = await loadBenchData(values.data as string);
  const quick = config.mode === "quick";
  const figures = await vectorIndexBench({
    data,
    cacheDir: here("../.engram/bench"),
    config: {
      sizes: quick ? [10_000] : [10_000, 100_000],
      poolSize: config.poolSize,
      questions: config.questions,
      coldRuns: quick ? 3 : 5,
      agreementQueries: config.counts.agreement,
      sigma: config.sigma,
      maxSeconds: config.counts.maxSeconds,
    },
  });
  return {
    mode: config.mode,
    method: VECTOR_INDEX_METHOD,
    loadAverageAtStart: machine.loadAverageAtStart,
    figures,
  };
}

async function main(): Promise<void> {
  const started = performance.now();
  const machine = machineInfo();
  log(
    `${config.mode} run on ${machine.cpu} x${machine.cores}, load average ${machine.loadAverageAtStart.join(" ")}`,
  );
  const dir = mkdtempSync(join(tmpdir(), "engram-bench-"));
  try {
    const perf = runs("perf") ? await perfBench(dir, machine, started) : null;
    const locomo = !runs("locomo")
      ? null
      : await locomoBench({
          data: values.data as string,
          store: values["locomo-store"] ?? (values.keep ? join(dir, "locomo") : undefined),
          log,
        });
    const lme = runs("lme")
      ? await lmeBench({
          data: values.lme as string,
          ...(config.mode === "quick" ? { limit: 2 } : {}),
          log,
          onEngram: (doc) => {
            const { per_question: _, ...figures } = doc;
            log(`LongMemEval, Engram: ${JSON.stringify(figures)}`);
          },
        })
      : null;
    const skills: SkillsFigures | null = runs("skills")
      ? await skillsBench({
          runsPerFamily: config.mode === "quick" ? 6 : 8,
          seed: Number.parseInt(values["skills-seed"] as string, 10),
          log,
        })
      : null;
    const vindex = runs("vindex") ? await vectorIndex(machine) : null;
    const imported = runs("import")
      ? await importBench({
          sizes: config.mode === "quick" ? [10_000, 40_000] : [10_000, 100_000, 200_000],
          interruptAt: [0.1, 0.5, 0.9],
          log,
        })
      : null;
    const facts = runs("facts") ? await factsBench() : null;
    const scale = runs("scale")
      ? await scaleBench({
          data: await loadBenchData(values.data as string),
          cacheDir: here("../.engram/bench"),
          log,
        })
      : null;
    machine.loadAverageAtEnd = loadavg().map((x) => Number(x.toFixed(2)));
    await mkdir(values.out as string, { recursive: true });
    const written = perf ? await writePerf(perf, locomo) : [];
    if (locomo) {
      written.push(...(await writeLocomoResults(locomo, values.out as string)));
      console.log(`\n${toText(locomoTables(locomo))}`);
    }
    if (lme) {
      written.push(...(await writeLmeResults(lme, values.out as string)));
      console.log(`\n${lmeTables(lme)}`);
    }
    if (skills) {
      await writeFile(join(values.out as string, "skills.json"), `${JSON.stringify(skills, null, 2)}\n`);
      written.push("skills.json");
      console.log(`\n${skillsTables(skills)}`);
    }
    if (vindex) {
      const results = { ...vindex, machine: { ...machine } };
      await writeFile(
        join(values.out as string, "vector-index.json"),
        `${JSON.stringify(results, null, 2)}\n`,
      );
      written.push("vector-index.json");
      console.log(`\n${vectorIndexTable(vindex.figures)}`);
    }
    if (imported) {
      const results = { ...imported, machine: { ...machine } };
      await writeFile(join(values.out as string, "import.json"), `${JSON.stringify(results, null, 2)}\n`);
      written.push("import.json");
      console.log(`\n${importTables(imported)}`);
    }
    if (facts) {
      written.push(...(await writeFactsResults(facts, values.out as string)));
      console.log(`\n${factsTables(facts)}`);
    }
    if (scale) {
      const results = { method: SCALE_METHOD, ...scale, machine: { ...machine } };
      await writeFile(join(values.out as string, "scale.json"), `${JSON.stringify(results, null, 2)}\n`);
      written.push("scale.json");
      console.log(`\n${scaleTable(scale)}`);
    }
    const seconds = Math.round((performance.now() - started) / 1000);
    log(`wrote ${written.join(", ")} to ${values.out} in ${seconds} s`);
  } finally {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
    else log(`stores kept in ${dir}`);
  }
}

await main();
