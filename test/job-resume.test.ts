import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createEngram } from "@engram/core";
import { hashEmbeddingModel, storageOf } from "@engram/core/testing";
import { afterAll, expect, it } from "vitest";
import { integrityCheck } from "./support/raw-sqlite.js";
import { makeTempDir } from "./support/temp-dir.js";

const TEST_DIR = fileURLToPath(new URL(".", import.meta.url));
const dir = makeTempDir("engram-job-resume-");
afterAll(() => dir.remove());

/** Starts the victim and SIGKILLs it as soon as it is inside the tier job. */
function killMidJob(dbPath: string): Promise<string> {
  const child = spawn(
    process.execPath,
    ["--conditions=@engram/source", "--import", "tsx", join(TEST_DIR, "support", "job-victim.ts"), dbPath],
    { cwd: TEST_DIR },
  );
  let out = "";
  let err = "";
  child.stderr.on("data", (c: Buffer) => {
    err += c.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("in-job")) child.kill("SIGKILL");
    });
    child.once("close", (_code, signal) =>
      signal === "SIGKILL" ? resolve(out) : reject(new Error(`victim exited on its own: ${out} ${err}`)),
    );
  });
}

it("a tier job interrupted by SIGKILL is taken again after its lease on the next start, and completes", async () => {
  const dbPath = join(dir.path, "resume.db");
  const out = await killMidJob(dbPath);
  expect(out).toContain("added");
  // The next process starts after the dead worker's lease (60 s) has run out.
  const later = () => new Date(Date.now() + 5 * 60_000);
  const engram = await createEngram({
    path: dbPath,
    embedder: hashEmbeddingModel(),
    clock: later,
    background: false,
    policy: { shortTermCapacity: 1, evictionBatch: 1, heatThreshold: 1 },
  });
  const running = await storageOf(engram).jobs({ userId: "victim" }, "running");
  expect(running.map((j) => j.type)).toEqual(["tiers"]);
  const report = await engram.flush();
  expect(report.completed).toBeGreaterThanOrEqual(1);
  const profile = await engram.profile({ userId: "victim" });
  expect(profile.map((t) => t.value)).toContain("Valparaiso");
  const messages = await engram.memories.list({ userId: "victim", kinds: ["message"] });
  expect(messages).toHaveLength(4);
  await engram.close();
  expect(integrityCheck(dbPath)).toBe("ok");
});
