import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { createEngram } from "@engram/core";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCompanion } from "./run-companion.js";

let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "engram-companion-"));
  db = join(dir, "companion.db");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

function lastUserText(options: LanguageModelV4CallOptions): string {
  const last = options.prompt.filter((m) => m.role === "user").at(-1);
  return (last?.content ?? []).map((p) => (p.type === "text" ? p.text : "")).join("");
}

/** A mock chat model that answers by echoing the user's message, so replies carry the user's words too. */
function echoModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async (options) => {
      const chunks: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "You told me: " },
        { type: "text-delta", id: "t", delta: lastUserText(options) },
        { type: "text-end", id: "t" },
        { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
      ];
      return { stream: convertArrayToReadableStream(chunks) };
    },
  });
}

async function chat(lines: string[], options: { userId?: string; model?: MockLanguageModelV4 } = {}) {
  const model = options.model ?? echoModel();
  let out = "";
  const code = await runCompanion({
    model,
    path: db,
    noEmbed: true,
    userId: options.userId ?? "ada",
    input: lines,
    output: { write: (chunk: string) => (out += chunk) },
    echo: true,
  });
  const prompts = model.doStreamCalls.map((c) => JSON.stringify(c.prompt));
  return { code, out, prompts };
}

describe("the companion remembers across runs", () => {
  it("the second run's prompt, as the model receives it, holds what the user said in the first", async () => {
    const first = await chat(["My grandmother's village is Vrbovsko, and I visit every August.", "/quit"]);
    expect(first.code).toBe(0);
    expect(first.out).toContain("companion> You told me: My grandmother's village is Vrbovsko");
    expect(first.prompts[0]).not.toContain("<memory>"); // nothing remembered on the very first turn

    const second = await chat(["Where should I travel this summer?"]);
    expect(second.code).toBe(0);
    expect(second.prompts).toHaveLength(1);
    expect(second.prompts[0]).toContain("Vrbovsko");
    // It reaches the model as memory in a system message (after the companion's own instructions), not
    // as a fake turn of this run.
    const prompt = JSON.parse(second.prompts[0] as string) as { role: string; content: unknown }[];
    expect(prompt[0]?.role).toBe("system");
    expect(JSON.stringify(prompt[0]?.content)).toContain("warm, curious companion");
    const memory = prompt.filter(
      (m) => m.role === "system" && JSON.stringify(m.content).includes("<memory>"),
    );
    expect(memory).toHaveLength(1);
    expect(JSON.stringify(memory[0]?.content)).toContain("Vrbovsko");
    const users = prompt.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
    expect(users).toHaveLength(1);
    expect(users[0]).toContain("Where should I travel this summer?");
    expect(users[0]).not.toContain("Vrbovsko");
  });

  it("/memory lists what was said; /correct files a correction", async () => {
    await chat(["I work as a lighthouse keeper in Scotland."]);
    const { out } = await chat(["/memory", "/correct I work as a ferry captain now", "/help", "/dance"]);
    expect(out).toContain("What I remember about you:");
    expect(out).toContain("Lately you told me:\n  - I work as a lighthouse keeper in Scotland.");
    expect(out).toMatch(/Conversation messages stored: 2/);
    expect(out).toMatch(/Thanks, noted\. \d+ old fact\(s\) replaced, \d+ new fact\(s\) stored/);
    expect(out).toContain("Commands: /memory");
    expect(out).toContain("Unknown command /dance.");
    const fresh = await chat(["/memory"], { userId: "nobody" });
    expect(fresh.out).toContain("I don't remember anything about you yet.");
  });

  it("a failing model call stores nothing and makes the run exit 1", async () => {
    const broken = new MockLanguageModelV4({
      doStream: async () => {
        throw new Error("connection refused");
      },
    });
    const { code, out } = await chat(["I was born in Tallinn"], { model: broken });
    expect(code).toBe(1);
    expect(out).toContain("(the model call failed: connection refused; nothing was stored)");
    const engram = await createEngram({ path: db, embedder: null });
    expect(await engram.users()).toEqual([]);
    await engram.close();
  });
});

/** Words nobody else says: any of their bytes left on disk means the user survived /forget. */
const WORDS = ["Quetzalbramble", "Xyloferntopia", "Marzipangrotto", "Obersnuffelheim"];
const fragments = (w: string) => [...new Set([w, w.toLowerCase(), w.toLowerCase().slice(w.length / 2)])];
const files = (path: string) => [path, `${path}-wal`, `${path}-shm`].filter(existsSync);
const surviving = (path: string) =>
  WORDS.flatMap(fragments).filter((f) => files(path).some((file) => readFileSync(file).includes(f)));

describe("/forget", () => {
  it("leaves nothing of the user in the database, WAL or shared-memory files", async () => {
    await chat(["Sam keeps bees on the roof"], { userId: "sam" });
    await chat([
      `My cat ${WORDS[0]} sleeps in the ${WORDS[1]} greenhouse.`,
      `We met at the ${WORDS[2]} bakery in ${WORDS[3]}.`,
    ]);
    await chat(["/memory"]); // a read, and a second session, before the erase
    expect(WORDS.filter((w) => files(db).every((f) => !readFileSync(f).includes(w)))).toEqual([]);

    const forgot = await chat(["/forget", "Do you remember my cat?", "/memory"]);
    expect(forgot.out).toMatch(/Done: I forgot everything about you \(\d+ memories erased/);
    // The turn after /forget is prompted with nothing of the user: neither memory nor this run's history.
    expect(forgot.prompts).toHaveLength(1);
    expect(WORDS.some((w) => forgot.prompts[0]?.includes(w))).toBe(false);
    expect(surviving(db)).toEqual([]);
    const engram = await createEngram({ path: db, embedder: null });
    expect((await engram.users()).sort()).toEqual(["ada", "sam"]); // ada's new, word-free turn
    expect((await engram.stats({ userId: "ada" })).memories).toBe(2);
    await engram.close();
    expect(readFileSync(db).includes("bees on the roof")).toBe(true);
  });
});
