import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Erasure, ForgetCounts } from "@engram/core";
import { InputError, UsageError } from "../cli-error.js";
import { oneLine, respond } from "../cli-output.js";
import { parseCommandArgs, requireFlag } from "../command-args.js";
import { storeTarget, withEngram } from "../open-engram.js";
import { countInFile } from "../scan-file.js";
import type { CommandContext } from "./command.js";

/** How long --verify waits, by default, for other processes to stop reading the old pages. */
const VERIFY_WAIT_SECONDS = 10;
/** Shorter ids also occur inside other data, so finding them would prove nothing. */
const MIN_SCANNED_ID_BYTES = 4;

// The id on one line: forget also takes an id stored with a newline in it, to erase such a user.
function renderForget(userId: string, r: ForgetCounts, erasure: Erasure): string {
  const removed =
    `forgot user ${oneLine(userId)}: removed ${r.memories} memories, ${r.history} history rows, ` +
    `${r.edges} edges, ${r.kv} key-value entries, ${r.jobs} jobs`;
  if (erasure.state === "erased") return `${removed}; erased from disk`;
  return `${removed}\n${erasure.state === "pending" ? "not yet erased from disk" : "erasure"}: ${erasure.reason}`;
}

/** The store's files: the database, its log and shared memory, and every vector index file beside it. */
function storeFiles(db: string): string[] {
  const files = [db, `${db}-wal`, `${db}-shm`];
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(`${db}-vectors`);
  return files;
}

/** Checks the bytes on disk: the erasure complete, and the user's id in none of the store's files. */
function verify(db: string, userId: string, erasure: Erasure) {
  if (erasure.state !== "erased") throw new InputError(`not yet erased from disk: ${erasure.reason}`);
  const scanned = storeFiles(db).filter((file) => {
    try {
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });
  if (Buffer.byteLength(userId) < MIN_SCANNED_ID_BYTES) {
    return { scanned: scanned.length, idSearched: false };
  }
  const needle = Buffer.from(userId, "utf8");
  const found = scanned.filter((file) => countInFile(file, needle) > 0);
  if (found.length > 0) {
    throw new InputError(
      `the id ${oneLine(JSON.stringify(userId))} still occurs in ${found.join(", ")} (as part of another user's data, or not erased)`,
    );
  }
  return { scanned: scanned.length, idSearched: true };
}

export async function runForget(args: readonly string[], ctx: CommandContext) {
  const { values } = parseCommandArgs(
    args,
    { user: { type: "string" }, verify: { type: "boolean" }, wait: { type: "string" } },
    { names: [] },
  );
  const userId = requireFlag(values.user, "user", "U (whose memory to erase)");
  const target = storeTarget(values, ctx.env);
  const waitSeconds = values.wait === undefined ? VERIFY_WAIT_SECONDS : Number(values.wait);
  if (values.wait !== undefined && !values.verify) throw new UsageError("--wait goes with --verify");
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0 || waitSeconds > 600) {
    throw new UsageError(`bad --wait ${JSON.stringify(values.wait)}: expected seconds from 0 to 600`);
  }
  if (values.verify && target.kind !== "sqlite") {
    throw new UsageError(
      "--verify reads the files of a SQLite store (--db); a Qdrant server frees deleted data itself",
    );
  }
  const { erasure, ...removed } = await withEngram(values, ctx.env, { mustExist: true }, async (engram) => {
    const report = await engram.forget({ userId });
    // --verify waits longer than forget itself for readers of the old pages to let go.
    return values.verify && report.erasure.state === "pending"
      ? { ...report, erasure: await engram.erasure({ waitMs: Math.round(waitSeconds * 1000) }) }
      : report;
  });
  const verified =
    values.verify && target.kind === "sqlite" ? verify(target.path, userId, erasure) : undefined;
  return respond(
    values.json,
    { userId, removed, erasure, ...(verified ? { verified } : {}) },
    () =>
      renderForget(userId, removed, erasure) +
      (verified === undefined
        ? ""
        : verified.idSearched
          ? `\nverified: the id occurs in none of the store's ${verified.scanned} files`
          : `\nverified: the erasure is complete (an id of under ${MIN_SCANNED_ID_BYTES} bytes is not searched for)`),
  );
}
