import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQdrantDouble } from "../../../../test/qdrant-double/index.js";
import { spawnCli } from "../test-support/spawn-cli.js";

let dir: string;
let db: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-ui-cmd-"));
  db = path.join(dir, "engram.db");
  // A store with one user, written by the CLI itself.
  fs.writeFileSync(
    path.join(dir, "turns.jsonl"),
    `${JSON.stringify({ role: "user", content: "I live in Lisbon" })}\n`,
  );
  const write = spawnCli([
    "ingest",
    "--db",
    db,
    "--user",
    "ana",
    "--no-embed",
    path.join(dir, "turns.jsonl"),
  ]);
  expect((await write.done).code).toBe(0);
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Starts `engram ui` with `args` and resolves with its printed URL's origin and token. */
async function startUi(args: readonly string[], env: Record<string, string> = {}) {
  const ui = spawnCli(["ui", ...args], env);
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    ui.child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /Engram inspector: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    ui.child.once("exit", () => reject(new Error("engram ui exited before printing its URL")));
  });
  const { origin, searchParams } = new URL(url);
  return { ui, origin, token: searchParams.get("token") as string };
}

describe("engram ui", () => {
  it("prints a loopback URL with a token, serves the API with it, and stops on SIGTERM", async () => {
    const { ui, origin, token } = await startUi(["--db", db, "--no-embed"]);
    expect(token.length).toBeGreaterThanOrEqual(40);
    expect((await fetch(`${origin}/api/users`)).status).toBe(401);
    const users = await fetch(`${origin}/api/users`, { headers: { authorization: `Bearer ${token}` } });
    expect((await users.json()).users[0].userId).toBe("ana");
    ui.child.kill("SIGTERM");
    expect((await ui.done).code).toBe(0);
  });

  it("serves a Qdrant store with --qdrant-url (the strict protocol double)", async () => {
    const double = await startQdrantDouble();
    try {
      const env = { ENGRAM_QDRANT_PREFIX: `ui_cmd_${process.pid}_` };
      const write = spawnCli(
        ["ingest", "--qdrant-url", double.url, "--user", "ana", "--no-embed", path.join(dir, "turns.jsonl")],
        env,
      );
      expect((await write.done).code).toBe(0);
      const { ui, origin, token } = await startUi(["--qdrant-url", double.url, "--no-embed"], env);
      const get = async (p: string) =>
        (await fetch(`${origin}/api/${p}`, { headers: { authorization: `Bearer ${token}` } })).json();
      const listed = await get("users");
      expect(listed.backend).toBe("qdrant");
      expect(listed.users.map((u: { userId: string }) => u.userId)).toEqual(["ana"]);
      const user = await get("users/ana");
      expect(user.shortTerm[0].messages[0].text).toBe("I live in Lisbon");
      const found = await get("users/ana/search?q=Lisbon");
      expect(found.results[0].channels.fulltext.rank).toBe(1);
      ui.child.kill("SIGTERM");
      expect((await ui.done).code).toBe(0);
    } finally {
      await double.close();
    }
  });

  it("refuses a non-loopback address without --allow-remote, and a missing store", async () => {
    const remote = await spawnCli(["ui", "--db", db, "--host", "0.0.0.0"]).done;
    expect(remote.code).toBe(2);
    expect(remote.stderr).toMatch(/--allow-remote/);
    const missing = await spawnCli(["ui", "--db", path.join(dir, "none.db")]).done;
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no store at/);
  });
});
