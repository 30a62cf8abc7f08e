// `pnpm bench --only import`: `engram ingest --no-embed` of 10,000, 100,000 and 200,000 short turns as a user
// runs it (a fresh process each, the root package.json's `engram` script), the time until the turns are
// stored and until the tier work is done, with peak RSS; a SIGINT sent at three points of the 200,000-line
// tier work (when 10%, 50% and 90% of the turns have moved to mid-term), how long until the process is gone and
// what it left; and `forget` of a 500-turn user in each
// store (the erasure rewrites the file, so it grows with the store).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { seededRandom } from "./stats.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export const IMPORT_METHOD =
  "A JSONL file of N short turns (user and assistant alternating, 40 turns a session, one minute apart, each about 40 characters of words from a syllable generator, so pages rarely share keywords and most start a segment of their own: the costly case for tier work), " +
  "ingested by `engram ingest --user u FILE --db DB --no-embed` in a fresh process started as `pnpm engram` starts it. " +
  "Stored: until every line is in the store (read from the store by another connection every 100 ms); done: the process's exit, after the tier work. " +
  "Interrupt: SIGINT to the process group once 10%, 50% and 90% of the largest file's turns have moved to mid-term, the time until the process is gone, the tier job's state and the file's integrity, then the same command again until done, and whether the user's memories (by kind, tier and currency) are then as in the run never interrupted. " +
  "Forget: `engram forget --user v` of a second user with 500 turns in the same store, wall time of the command (process start included).";

export interface ImportFigures {
  readonly turns: number;
  readonly storedSeconds: number;
  readonly doneSeconds: number;
  readonly tierSeconds: number;
  readonly peakRssMiB: number | null;
  readonly storeMiB: number;
  readonly segments: number;
  readonly facts: number;
  readonly forgetSeconds: number;
}

export interface InterruptFigures {
  readonly turns: number;
  /** Where in the tier work the signal went: the share of the turns moved to mid-term by then. */
  readonly at: number;
  readonly exitSeconds: number;
  readonly exitCode: number | null;
  readonly jobAfter: string;
  readonly integrity: string;
  readonly resumeSeconds: number;
  /** After the resumed run: the user's memories by kind and tier as in the run never interrupted. */
  readonly sameAsUninterrupted: boolean;
}

export interface ImportResults {
  readonly method: string;
  readonly figures: ImportFigures[];
  readonly interrupts: InterruptFigures[];
}

/** Short turns whose words pages rarely share. */
export function importFile(path: string, turns: number, seed = 7): void {
  const random = seededRandom(seed);
  const syllables = [
    "ka",
    "lo",
    "mi",
    "ren",
    "tu",
    "sa",
    "vel",
    "dor",
    "pi",
    "quen",
    "zar",
    "bo",
    "el",
    "fin",
  ];
  const word = () =>
    Array.from(
      { length: 2 + Math.floor(random() * 2) },
      () => syllables[Math.floor(random() * syllables.length)],
    ).join("");
  const start = Date.UTC(2025, 0, 1, 9);
  const lines: string[] = [];
  for (let i = 0; i < turns; i++) {
    const role = i % 2 ? "assistant" : "user";
    const content = `${role === "user" ? "Tell me about" : "Here is"} ${word()} ${word()} and ${word()} ${i}`;
    lines.push(
      JSON.stringify({
        role,
        content,
        at: new Date(start + i * 60_000).toISOString(),
        session: `s${Math.floor(i / 40)}`,
      }),
    );
  }
  writeFileSync(path, `${lines.join("\n")}\n`);
}

interface Run {
  readonly code: number | null;
  readonly stderr: string;
  readonly seconds: number;
  readonly peakRssMiB: number | null;
  /** Seconds at which every line had been stored, when watched. */
  readonly storedAt: number | null;
}

function count(db: string, sql: string): number {
  try {
    const raw = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return raw.prepare(sql).pluck().get() as number;
    } finally {
      raw.close();
    }
  } catch {
    return 0;
  }
}

/** `pnpm engram ARGS` as the root script runs it, in its own process group; `/usr/bin/time` for peak RSS. */
function engram(
  args: readonly string[],
  watch?: { db: string; lines: number; interruptWhen?: () => boolean },
): Promise<Run> {
  const scripts = (
    JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
  ).scripts;
  const rss = join(mkdtempSync(join(tmpdir(), "engram-rss-")), "rss");
  const timed = `exec /usr/bin/time -f %M -o ${rss} ${scripts.engram}`;
  const hasTime = (() => {
    try {
      return statSync("/usr/bin/time").isFile();
    } catch {
      return false;
    }
  })();
  const child = spawn("sh", ["-c", `${hasTime ? timed : `exec ${scripts.engram}`} "$@"`, "engram", ...args], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}` },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (c: string) => {
    stderr += c;
  });
  const started = performance.now();
  let storedAt: number | null = null;
  let signalled = false;
  const poll = watch
    ? setInterval(() => {
        if (
          storedAt === null &&
          count(watch.db, "SELECT count(*) FROM memories WHERE kind = 'message'") >= watch.lines
        )
          storedAt = (performance.now() - started) / 1000;
        if (!signalled && watch.interruptWhen?.()) {
          signalled = true;
          try {
            process.kill(-(child.pid as number), "SIGINT");
          } catch {
            // already gone
          }
        }
      }, 100)
    : null;
  return new Promise((resolve) =>
    child.once("close", (code) => {
      if (poll) clearInterval(poll);
      let peakRssMiB: number | null = null;
      try {
        peakRssMiB = Math.round(Number(readFileSync(rss, "utf8").trim().split("\n").at(-1)) / 1024);
      } catch {
        // no /usr/bin/time
      }
      rmSync(dirname(rss), { recursive: true, force: true });
      resolve({ code, stderr, seconds: (performance.now() - started) / 1000, peakRssMiB, storedAt });
    }),
  );
}

async function ingestAndForget(dir: string, turns: number, log: (m: string) => void): Promise<ImportFigures> {
  const db = join(dir, `import-${turns}.db`);
  const file = join(dir, `import-${turns}.jsonl`);
  importFile(file, turns);
  const other = join(dir, "other.jsonl");
  importFile(other, 500, 99);
  const run = await engram(["ingest", "--user", "u", file, "--db", db, "--no-embed"], { db, lines: turns });
  if (run.code !== 0) throw new Error(`ingest of ${turns} turns failed (${run.code}): ${run.stderr}`);
  log(`import ${turns}: stored at ${run.storedAt?.toFixed(1)} s, done at ${run.seconds.toFixed(1)} s`);
  const added = await engram(["ingest", "--user", "v", other, "--db", db, "--no-embed"]);
  if (added.code !== 0) throw new Error(`ingest of the second user failed: ${added.stderr}`);
  const forget = await engram(["forget", "--user", "v", "--db", db]);
  if (forget.code !== 0) throw new Error(`forget failed: ${forget.stderr}`);
  const storedSeconds = run.storedAt ?? run.seconds;
  return {
    turns,
    storedSeconds: round(storedSeconds),
    doneSeconds: round(run.seconds),
    tierSeconds: round(run.seconds - storedSeconds),
    peakRssMiB: run.peakRssMiB,
    storeMiB: round(statSync(db).size / 2 ** 20),
    segments: count(db, "SELECT count(*) FROM memories WHERE kind = 'segment'"),
    facts: count(db, "SELECT count(*) FROM memories WHERE kind = 'fact'"),
    forgetSeconds: round(forget.seconds),
  };
}

async function interrupted(dir: string, figures: ImportFigures, at: number): Promise<InterruptFigures> {
  const db = join(dir, `interrupt-${figures.turns}-${at}.db`);
  const file = join(dir, `import-${figures.turns}.jsonl`);
  let sentAt = 0;
  const run = await engram(["ingest", "--user", "u", file, "--db", db, "--no-embed"], {
    db,
    lines: figures.turns,
    // How far the tier work is: the share of the turns it has moved to mid-term.
    interruptWhen: () => {
      const due =
        count(db, "SELECT count(*) FROM memories WHERE kind = 'message' AND tier = 'mid'") >=
        at * figures.turns;
      if (due) sentAt = performance.now();
      return due;
    },
  });
  const exitSeconds = sentAt ? (performance.now() - sentAt) / 1000 : Number.NaN;
  const jobAfter = (() => {
    const raw = new Database(db, { readonly: true });
    try {
      return (raw.prepare("SELECT status FROM jobs WHERE type = 'tiers'").pluck().all() as string[]).join(
        ",",
      );
    } finally {
      raw.close();
    }
  })();
  const integrity = (() => {
    const raw = new Database(db, { readonly: true });
    try {
      return raw.pragma("integrity_check", { simple: true }) as string;
    } finally {
      raw.close();
    }
  })();
  const resume = await engram(["ingest", "--user", "u", file, "--db", db, "--no-embed"]);
  if (resume.code !== 0) throw new Error(`resumed ingest failed: ${resume.stderr}`);
  const shape = (path: string) => {
    const raw = new Database(path, { readonly: true });
    try {
      return JSON.stringify(
        raw
          .prepare(
            "SELECT kind, tier, expired_at IS NULL AS current, count(*) AS n FROM memories WHERE user_id = 'u' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
          )
          .all(),
      );
    } finally {
      raw.close();
    }
  };
  return {
    turns: figures.turns,
    at,
    exitSeconds: round(exitSeconds),
    exitCode: run.code,
    jobAfter,
    integrity,
    resumeSeconds: round(resume.seconds),
    sameAsUninterrupted: (() => {
      const a = shape(db);
      const b = shape(join(dir, `import-${figures.turns}.db`));
      if (a !== b) console.error(`[bench] resumed ${a}\n[bench] uninterrupted ${b}`);
      return a === b;
    })(),
  };
}

const round = (x: number): number => Math.round(x * 100) / 100;

export async function importBench(options: {
  readonly sizes: readonly number[];
  readonly interruptAt: readonly number[];
  readonly log: (message: string) => void;
}): Promise<ImportResults> {
  const dir = mkdtempSync(join(tmpdir(), "engram-import-"));
  try {
    const figures: ImportFigures[] = [];
    for (const turns of options.sizes) figures.push(await ingestAndForget(dir, turns, options.log));
    const largest = figures.at(-1) as ImportFigures;
    const interrupts: InterruptFigures[] = [];
    for (const at of options.interruptAt) {
      const figure = await interrupted(dir, largest, at);
      options.log(`interrupt at ${at * 100}% of ${largest.turns}: gone after ${figure.exitSeconds} s`);
      interrupts.push(figure);
    }
    return { method: IMPORT_METHOD, figures, interrupts };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function importTables(results: ImportResults): string {
  const rows = results.figures.map(
    (f) =>
      `| ${f.turns.toLocaleString("en")} | ${f.storedSeconds} s | ${f.tierSeconds} s | ${f.doneSeconds} s | ${f.peakRssMiB ?? "-"} MiB | ${f.storeMiB} MiB | ${f.segments} | ${f.forgetSeconds} s |`,
  );
  const interrupts = results.interrupts.map(
    (i) =>
      `| ${Math.round(i.at * 100)}% | ${i.exitSeconds} s | ${i.exitCode} | ${i.jobAfter} | ${i.integrity} | ${i.resumeSeconds} s | ${i.sameAsUninterrupted ? "yes" : "no"} |`,
  );
  return [
    "| turns | stored | tier work | in all | peak RSS | store | segments after | forget of a 500-turn user |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
    `SIGINT during the tier work of ${(results.figures.at(-1)?.turns ?? 0).toLocaleString("en")} turns:`,
    "",
    "| sent at | gone after | exit code | tier job after | integrity | the same command again | then as if never stopped |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...interrupts,
  ].join("\n");
}
