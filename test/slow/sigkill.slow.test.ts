import { existsSync } from "node:fs";
import { join } from "node:path";
import { createEngram, type Engram } from "@engram/core";
import { hashEmbeddingModel, seededRandom, storageOf } from "@engram/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { integrityCheck } from "../support/raw-sqlite.js";
import { type NodeProcess, spawnNode, TEST_DIR } from "../support/spawn-node.js";
import { makeTempDir } from "../support/temp-dir.js";

const TRIALS = Number(process.env.ENGRAM_KILL_TRIALS ?? 50);
const SEED = Number(process.env.ENGRAM_KILL_SEED ?? Date.now() % 1_000_000);
const TURNS_PER_FILE = 40;
const dir = makeTempDir("engram-sigkill-");
afterAll(() => dir.remove());

/** Acknowledged numbers printed so far ("acked <n>" lines, complete ones only). */
const acked = (child: NodeProcess): number[] =>
  [...child.output.stdout.matchAll(/^acked (\d+)\n/gm)].map((m) => Number(m[1]));

/** Children started ahead of their trial, so their 1 to 4 s of module loading overlaps earlier trials. */
const LOOKAHEAD = 3;

/**
 * Runs `trials` children one after another, each loaded while earlier ones run, lets each go, kills it
 * with SIGKILL after a random delay (from its first acknowledgement when `afterFirstAck`), and hands what
 * it acknowledged to `check`.
 */
async function killTrials(
  trials: number,
  start: (trial: number) => NodeProcess,
  maxDelayMs: number,
  check: (trial: number, acks: number[]) => Promise<void>,
  afterFirstAck = false,
): Promise<{ acks: number; delays: number[] }> {
  const random = seededRandom(SEED + maxDelayMs);
  const ahead = Array.from({ length: Math.min(LOOKAHEAD, trials) }, (_, t) => start(t));
  let total = 0;
  const delays: number[] = [];
  try {
    for (let trial = 0; trial < trials; trial++) {
      const child = ahead.shift() as NodeProcess;
      const t0 = Date.now();
      await child.waitFor("ready\n");
      const t1 = Date.now();
      if (trial + LOOKAHEAD < trials) ahead.push(start(trial + LOOKAHEAD));
      child.child.stdin.write("go\n");
      if (afterFirstAck) await child.waitFor("acked 0\n");
      const delay = Math.round(random() * maxDelayMs);
      delays.push(delay);
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.child.kill("SIGKILL");
      await child.exited;
      expect(child.child.signalCode, child.output.stderr).toBe("SIGKILL");
      const acks = acked(child);
      total += acks.length;
      const t2 = Date.now();
      await check(trial, acks);
      if (process.env.ENGRAM_KILL_DEBUG)
        console.log(
          `trial ${trial}: ready wait ${t1 - t0} ms, run ${t2 - t1} ms, check ${Date.now() - t2} ms`,
        );
    }
  } finally {
    // A failed trial leaves the children started ahead of it waiting, their workers still on the store.
    for (const child of ahead) child.child.kill("SIGKILL");
    await Promise.all(ahead.map((child) => child.exited));
  }
  return { acks: total, delays };
}

/** Opens the store as the next process would, minutes later (the dead one's job leases have run out). */
async function reopen(path: string, embedder: boolean): Promise<Engram> {
  // A child killed before it created the store leaves no file; what it acknowledged is checked after.
  if (existsSync(path)) expect(integrityCheck(path)).toBe("ok");
  const later = () => new Date(Date.now() + 10 * 60_000);
  return createEngram({
    path,
    embedder: embedder ? hashEmbeddingModel({ dimensions: 64 }) : null,
    background: false,
    clock: later,
  });
}

/** Runs the pending work and checks that none is left, queued, running or failed. */
async function completesPendingJobs(engram: Engram, users: readonly string[]): Promise<void> {
  const report = await engram.flush();
  expect(report.failed).toBe(0);
  for (const userId of users) {
    for (const status of ["queued", "running", "failed"] as const) {
      expect(await storageOf(engram).jobs({ userId }, status), `${status} jobs of ${userId}`).toEqual([]);
    }
  }
}

describe(`SIGKILL at random moments, ${TRIALS} + ${TRIALS} trials (seed ${SEED})`, () => {
  it("during engram ingest: every acknowledged file whole, the one in flight all or nothing", async () => {
    const path = join(dir.path, "ingest.db");
    const users = ["u0", "u1", "u2"];
    const sessionTurns = async (engram: Engram, trial: number, n: number) =>
      (
        await engram.memories.list({
          userId: users[trial % 3] as string,
          sessionId: `t${trial}-f${n}`,
          kinds: ["message"],
          limit: 10_000,
        })
      ).length;
    let partial = 0;
    const { acks, delays } = await killTrials(
      TRIALS,
      (t) =>
        spawnNode(join(TEST_DIR, "support", "kill-ingest-loop.ts"), [
          path,
          dir.path,
          `${t}`,
          users[t % 3] as string,
        ]),
      1500,
      async (trial, files) => {
        const engram = await reopen(path, false);
        try {
          for (const n of files)
            expect(await sessionTurns(engram, trial, n), `trial ${trial} file ${n}`).toBe(TURNS_PER_FILE);
          const inFlight = await sessionTurns(engram, trial, files.length);
          expect([0, TURNS_PER_FILE], `trial ${trial}: the file in flight`).toContain(inFlight);
          if (inFlight > 0) partial++;
          await completesPendingJobs(engram, users);
        } finally {
          await engram.close();
        }
      },
    );
    console.log(
      `ingest: ${TRIALS} kills after ${Math.min(...delays)}-${Math.max(...delays)} ms, ${acks} files acknowledged and kept, ${partial} in-flight files stored whole, the others not at all`,
    );
  });

  it("during AI SDK middleware write-back: every acknowledged turn kept, embedded on reopen", async () => {
    const path = join(dir.path, "middleware.db");
    const { acks, delays } = await killTrials(
      TRIALS,
      (t) => spawnNode(join(TEST_DIR, "support", "kill-middleware-loop.ts"), [path, `${t}`]),
      1000,
      async (trial, turns) => {
        const engram = await reopen(path, true);
        try {
          const stored = await engram.memories.list({
            userId: "ada",
            sessionId: `trial-${trial}`,
            kinds: ["message"],
            limit: 100_000,
          });
          const texts = new Set(stored.map((m) => m.text));
          for (const i of turns) {
            expect(
              texts.has(`trial ${trial} turn ${i}: my sister moved to Porto`),
              `trial ${trial} turn ${i}`,
            ).toBe(true);
            expect(texts.has(`Noted, trial ${trial} answer ${i}.`), `trial ${trial} answer ${i}`).toBe(true);
          }
          await completesPendingJobs(engram, ["ada"]);
          const all = await engram.memories.list({ userId: "ada", kinds: ["message"], limit: 100_000 });
          const pending = all.filter((m) => m.status !== "ready").map((m) => `${m.id} (${m.text})`);
          expect(pending, `trial ${trial}: messages not ready after flush()`).toEqual([]);
        } finally {
          await engram.close();
        }
      },
      // Under load the first call can take longer than the whole window: the delay counts from turn 0.
      true,
    );
    console.log(
      `middleware: ${TRIALS} kills ${Math.min(...delays)}-${Math.max(...delays)} ms after the first turn, ${acks} turns acknowledged and kept, all embedded on reopen`,
    );
  });
});
