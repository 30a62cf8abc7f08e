import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createEngram } from "@engram/core";
import { hashEmbeddingModel, seededRandom } from "@engram/core/testing";
import { afterAll, expect, it } from "vitest";
import { integrityCheck } from "./support/raw-sqlite.js";
import { makeTempDir } from "./support/temp-dir.js";

const ROUNDS = Number(process.env.ENGRAM_CRASH_ROUNDS ?? 20);
const SEED = Number(process.env.ENGRAM_CRASH_SEED ?? Date.now() % 1_000_000);
/** Writers started ahead of their round, so their ~1-2 s module loading overlaps earlier rounds. */
const LOOKAHEAD = 3;
const TEST_DIR = fileURLToPath(new URL(".", import.meta.url));
const WRITER = join(TEST_DIR, "support", "crash-writer.ts");

interface Writer {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every complete line after "ready": ids whose `add` had resolved. */
  readonly ids: string[];
  ready: boolean;
  stderr: string;
  /** Resolves when the process is gone and its output fully read. */
  readonly closed: Promise<void>;
  /** Called after each chunk of output. */
  onOutput: () => void;
}

function startWriter(dbPath: string, round: number): Writer {
  const child = spawn(
    process.execPath,
    ["--conditions=@engram/source", "--import", "tsx", WRITER, dbPath, `${round}`],
    {
      cwd: TEST_DIR,
    },
  );
  const writer: Writer = {
    child,
    ids: [],
    ready: false,
    stderr: "",
    closed: new Promise((resolve) => child.once("close", () => resolve())),
    onOutput: () => {},
  };
  let buffer = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? ""; // a partial last line was not fully written: not acknowledged
    for (const line of lines) {
      if (line === "ready") writer.ready = true;
      else if (line) writer.ids.push(line);
    }
    writer.onOutput();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    writer.stderr += chunk;
  });
  child.once("close", () => writer.onOutput());
  return writer;
}

/** Waits until `done()` holds, failing if the writer exits first. */
function until(writer: Writer, done: () => boolean, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (done()) resolve();
      else if (writer.child.exitCode !== null || writer.child.signalCode !== null) {
        reject(new Error(`writer exited before ${what}: ${writer.stderr}`));
      }
    };
    writer.onOutput = check;
    check();
  });
}

/** Lets the writer go, waits for `acks` acknowledged ids plus a little jitter, then SIGKILLs it. */
async function runRound(writer: Writer, acks: number, jitterMs: number): Promise<string[]> {
  await until(writer, () => writer.ready, "it was ready");
  writer.child.stdin.write("go\n");
  await until(writer, () => writer.ids.length >= acks, `${acks} acknowledged ids`);
  await new Promise((resolve) => setTimeout(resolve, jitterMs));
  writer.child.kill("SIGKILL");
  await writer.closed;
  expect(writer.child.signalCode, `writer died on its own: ${writer.stderr}`).toBe("SIGKILL");
  return writer.ids;
}

const dir = makeTempDir("engram-crash-");
const started: Writer[] = [];
afterAll(() => {
  for (const w of started)
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
  dir.remove();
});

// The seed stays out of the test name so the name is stable; failures print it for replay.
it(`keeps every acknowledged add across ${ROUNDS} SIGKILLs of the writer`, async () => {
  const dbPath = join(dir.path, "engram.db");
  const random = seededRandom(SEED);
  const writers: Writer[] = [];
  const acknowledged: string[] = [];
  let targets = 0;
  for (let round = 0; round < ROUNDS; round++) {
    while (writers.length <= Math.min(round + LOOKAHEAD, ROUNDS - 1)) {
      const writer = startWriter(dbPath, writers.length);
      writers.push(writer);
      started.push(writer);
    }
    const acks = Math.floor(random() * 40);
    targets += acks;
    acknowledged.push(...(await runRound(writers[round] as Writer, acks, random() * 8)));
  }
  expect(acknowledged.length, `seed ${SEED}`).toBeGreaterThanOrEqual(targets);

  const engram = await createEngram({ path: dbPath, embedder: hashEmbeddingModel() });
  const missing: string[] = [];
  for (const id of acknowledged) {
    await engram.memories.get({ userId: "writer", id }).catch(() => missing.push(id));
  }
  expect(missing, `seed ${SEED}`).toEqual([]);
  expect((await engram.stats({ userId: "writer" })).memories).toBeGreaterThanOrEqual(acknowledged.length);
  await engram.close();
  expect(integrityCheck(dbPath), `seed ${SEED}`).toBe("ok");
});
