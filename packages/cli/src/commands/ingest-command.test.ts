import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram } from "@engram/core";
import { storageOf } from "@engram/core/testing";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { runCliCaptured } from "../run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-ingest-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let db: string;
let n = 0;
beforeEach(() => {
  db = join(dir, `t${++n}.db`);
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const cli = (...args: string[]) => runCliCaptured([...args, "--db", db, "--no-embed"]);

/** The user's memories: 0 too when a refused ingest left no store at all. */
async function memoriesOf(user: string): Promise<number> {
  if (!existsSync(db)) return 0;
  const run = await cli("stats", "--user", user, "--json");
  return (JSON.parse(run.stdout) as { memories: number }).memories;
}

const turns = [
  { role: "user", content: "I keep bees on my roof in Oslo.", at: "2026-01-05T10:00:00Z", session: "s1" },
  { role: "assistant", content: "How many hives?", at: "2026-01-05T10:00:03Z", session: "s1" },
  { role: "user", content: "Three hives now.", at: "2026-02-01T09:00:00Z", session: "s2", name: "Kari" },
];
const jsonl = (rows: readonly object[]) => `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`;

function locomoConversation(sampleId: string, texts: readonly string[]) {
  return {
    sample_id: sampleId,
    conversation: {
      speaker_a: "Ann",
      speaker_b: "Bob",
      session_1_date_time: "1:56 pm on 8 May, 2023",
      session_1: texts.map((text, i) => ({ speaker: i % 2 ? "Bob" : "Ann", dia_id: `D1:${i + 1}`, text })),
    },
    qa: [],
  };
}

describe("engram ingest", () => {
  it("stores JSONL turns with their times, names and sessions, and reports them as JSON", async () => {
    const path = file("turns.jsonl", `\n${jsonl(turns)}\n\n`);
    const run = await cli("ingest", "--user", "u1", path, "--json");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      format: "jsonl",
      memories: 3,
      added: 3,
      users: [{ userId: "u1", memories: 3, added: 3, pending: 0 }],
    });
    const list = JSON.parse((await cli("list", "--user", "u1", "--json")).stdout) as {
      memories: { text: string; sessionId: string; validFrom: string; name: string | null }[];
    };
    expect(list.memories.map((m) => [m.text, m.sessionId, m.validFrom, m.name])).toEqual([
      ["Three hives now.", "s2", "2026-02-01T09:00:00.000Z", "Kari"],
      ["How many hives?", "s1", "2026-01-05T10:00:03.000Z", null],
      ["I keep bees on my roof in Oslo.", "s1", "2026-01-05T10:00:00.000Z", null],
    ]);
  });

  it("prints one readable line without --json", async () => {
    const path = file("human.jsonl", jsonl(turns));
    const run = await cli("ingest", "--user", "u1", path);
    expect(run.stdout).toBe(`ingested 3 memories from ${path} (jsonl) for user u1\n`);
  });

  it("running the same file again adds nothing and says so; `engram stats` is unchanged", async () => {
    const path = file(
      "again.jsonl",
      jsonl([...turns, { role: "user", content: "no time here", session: "s2" }]),
    );
    expect((await cli("ingest", "--user", "u1", path)).code).toBe(0);
    const before = (await cli("stats", "--json")).stdout;
    const again = await cli("ingest", "--user", "u1", path);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      `ingested 4 memories from ${path} (jsonl) for user u1; 4 of them were stored already, 0 added\n`,
    );
    expect((await cli("stats", "--json")).stdout).toBe(before);
    const locomo = file("again.json", JSON.stringify([locomoConversation("conv-a", ["Hi.", "Hello."])]));
    expect((await cli("ingest", locomo)).code).toBe(0);
    const locomoBefore = (await cli("stats", "--json")).stdout;
    expect(JSON.parse((await cli("ingest", locomo, "--json")).stdout)).toMatchObject({
      memories: 2,
      added: 0,
    });
    expect((await cli("stats", "--json")).stdout).toBe(locomoBefore);
  });

  it("a rerun while a stopped run holds the tier work says it is pending, and until when", async () => {
    const rows = turns.map((t, i) => ({ ...t, id: `t${i}` }));
    const path = file("held.jsonl", jsonl(rows));
    // What a run killed during its tier work leaves: the turns stored, the tiers job leased and not done.
    const engram = await createEngram({ path: db, embedder: null, background: false });
    await engram.add({
      userId: "u1",
      messages: rows.map(({ role, content, at, id, session, name }) => ({
        role: role as "user" | "assistant",
        content,
        at,
        id,
        sessionId: session,
        ...(name ? { name } : {}),
      })),
    });
    // Leased for ten minutes rather than the worker's 60 s, so a slow test machine cannot outlast it.
    const [job] = await storageOf(engram).claimJobs({
      now: new Date().toISOString(),
      limit: 16,
      leaseMs: 600_000,
    });
    await engram.close();
    const again = await cli("ingest", "--user", "u1", path);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      `ingested 3 memories from ${path} (jsonl) for user u1; 3 of them were stored already, 0 added\n` +
        `tier work pending for u1: 1 job, held by an earlier run (stopped, or still running) until ` +
        `${job?.leaseUntil?.slice(11, 19)} UTC; ingest the file again after that to resume it (nothing is stored twice)\n`,
    );
    const json = JSON.parse((await cli("ingest", "--user", "u1", path, "--json")).stdout);
    expect(json.users).toEqual([
      { userId: "u1", memories: 3, added: 0, pending: 1, heldUntil: job?.leaseUntil },
    ]);
    // Once the lease has ended, a rerun takes the job over and runs it: nothing is left pending.
    const reopened = await createEngram({ path: db, embedder: null, background: false });
    await storageOf(reopened).renewJob(job?.id as string, job?.attempts as number, new Date(0).toISOString());
    await reopened.close();
    const resumed = JSON.parse((await cli("ingest", "--user", "u1", path, "--json")).stdout);
    expect(resumed.users).toEqual([{ userId: "u1", memories: 3, added: 0, pending: 0 }]);
    expect(JSON.parse((await cli("stats", "--user", "u1", "--json")).stdout).jobs).toEqual({ done: 1 });
  });

  it("rejects a malformed line by number and stores nothing, not even the valid lines before it", async () => {
    const path = file("bad.jsonl", `${JSON.stringify(turns[0])}\n{not json\n${JSON.stringify(turns[1])}\n`);
    const run = await cli("ingest", "--user", "u2", path);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^engram ingest: line 2: not valid JSON \(.+\)\n$/);
    expect(await memoriesOf("u2")).toBe(0);
  });

  it.each([
    [
      '{"role":"bot","content":"x"}',
      "line 2: role: expected role to be one of user, assistant, system, tool",
    ],
    ['{"role":"user","content":"  "}', "line 2: content: content must not be empty"],
    ['{"role":"user","content":"x","at":"last week"}', "line 2: at: expected an ISO 8601 time"],
    ['["user","x"]', "line 2: expected a message object"],
  ])("rejects an invalid field (%s) naming the line and the field", async (line, message) => {
    const path = file("invalid.jsonl", `${JSON.stringify(turns[0])}\n${line}\n`);
    const run = await cli("ingest", "--user", "u3", path);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`engram ingest: ${message}`);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(await memoriesOf("u3")).toBe(0);
  });

  it("names a missing file, an empty file and a missing --user", async () => {
    const missing = await cli("ingest", "--user", "u1", join(dir, "nope.jsonl"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`engram ingest: cannot read ${join(dir, "nope.jsonl")}: no such file\n`);
    const empty = await cli("ingest", "--user", "u1", file("empty.jsonl", "\n\n"));
    expect(empty.stderr).toContain("the file holds no messages");
    const noUser = await cli("ingest", file("nouser.jsonl", jsonl(turns)));
    expect(noUser.code).toBe(2);
    expect(noUser.stderr).toContain("missing --user U");
  });

  it("ingests a LoCoMo file: each conversation as the user named by its sample_id", async () => {
    const data = [locomoConversation("conv-a", ["I adopted a cat.", "What is its name?", "Miso."])];
    data.push(locomoConversation("conv-b", ["I run marathons.", "Which one is next?"]));
    const path = file("locomo.json", JSON.stringify(data));
    const run = await cli("ingest", path, "--json");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      format: "locomo",
      memories: 5,
      added: 5,
      users: [
        { userId: "conv-a", memories: 3, added: 3, pending: 0 },
        { userId: "conv-b", memories: 2, added: 2, pending: 0 },
      ],
    });
    const prefixed = await cli("ingest", "--user", "eval", path, "--json");
    const users = (JSON.parse(prefixed.stdout) as { users: { userId: string }[] }).users.map((u) => u.userId);
    expect(users).toEqual(["eval/conv-a", "eval/conv-b"]);
    const single = await cli(
      "ingest",
      "--user",
      "ann",
      file("one.json", JSON.stringify([data[0]])),
      "--json",
    );
    expect((JSON.parse(single.stdout) as { users: unknown[] }).users).toEqual([
      { userId: "ann", memories: 3, added: 3, pending: 0 },
    ]);
  });

  it("rejects a JSON array that is not LoCoMo, and a LoCoMo file with a bad session time", async () => {
    const notLocomo = await cli("ingest", "--user", "u1", file("array.json", JSON.stringify([turns[0]])));
    expect(notLocomo.code).toBe(1);
    expect(notLocomo.stderr).toContain("is a JSON array but not a LoCoMo file");
    const bad = locomoConversation("conv-x", ["hello"]);
    bad.conversation.session_1_date_time = "sometime";
    const badTime = await cli("ingest", file("badtime.json", JSON.stringify([bad])));
    expect(badTime.code).toBe(1);
    expect(badTime.stderr).toContain('cannot read session time "sometime"');
    expect(await memoriesOf("conv-x")).toBe(0);
  });
});
