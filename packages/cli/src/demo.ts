// `pnpm demo`: ingests the shipped sample conversation into a fresh embedded store, offline, and shows what
// Engram stored, how it answers recall questions (with evidence and why each piece was found), a
// correction with its history, and the size of an export.
import { readFileSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createEngram, type Engram, type SearchResult } from "@engram/core";
import { z } from "zod";

const USER = "maya";
const DB_PATH = ".engram/demo.db";
const DATA = new URL("../data/", import.meta.url);

const lineSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string().min(1),
  at: z.string(),
  session: z.string().min(1),
});
type Line = z.infer<typeof lineSchema>;
const questionsSchema = z.array(z.object({ question: z.string().min(1), expect: z.string().min(1) }));
type Question = z.infer<typeof questionsSchema>[number];

function section(title: string): void {
  console.log(`\n== ${title} ${"=".repeat(Math.max(0, 96 - title.length))}`);
}

const day = (iso: string | null) => (iso ?? "unknown date").slice(0, 10);
const clip = (text: string, n = 100) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/** The sample conversation, grouped by session in file order. */
function loadConversation(): Map<string, Line[]> {
  const text = readFileSync(new URL("sample-conversation.jsonl", DATA), "utf8");
  const sessions = new Map<string, Line[]>();
  text.split("\n").forEach((raw, i) => {
    if (raw.trim() === "") return;
    const parsed = lineSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) throw new Error(`sample-conversation.jsonl line ${i + 1}: ${parsed.error.message}`);
    const lines = sessions.get(parsed.data.session) ?? [];
    lines.push(parsed.data);
    sessions.set(parsed.data.session, lines);
  });
  return sessions;
}

async function ingest(engram: Engram, sessions: Map<string, Line[]>): Promise<void> {
  section("1. Ingest");
  const lines = [...sessions.values()].flat();
  const times = lines.map((l) => l.at).sort();
  const first = times[0] ?? "";
  const last = times[times.length - 1] ?? "";
  const weeks = (Date.parse(last) - Date.parse(first)) / (7 * 86_400_000);
  console.log(`sample: packages/cli/data/sample-conversation.jsonl, ${lines.length} turns of user "${USER}"`);
  console.log(
    `        ${sessions.size} sessions from ${day(first)} to ${day(last)} (${weeks.toFixed(1)} weeks)`,
  );
  const started = performance.now();
  for (const [sessionId, turns] of sessions) {
    const result = await engram.add({
      userId: USER,
      sessionId,
      messages: turns.map(({ role, content, at }) => ({ role, content, at })),
    });
    console.log(
      `  add ${sessionId.padEnd(3)} ${day(turns[0]?.at ?? null)}  ${result.ids.length} turns, ${result.status}`,
    );
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `stored in ${seconds.toFixed(1)} s, offline embedder included (${engram.embedder?.id ?? "none"})`,
  );
}

async function showStored(engram: Engram): Promise<void> {
  section("2. What was stored");
  const stats = await engram.stats({ userId: USER });
  const counts = (o: Record<string, number | undefined>) =>
    Object.entries(o)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ");
  console.log(
    `memories: ${stats.memories}   by kind: ${counts(stats.byKind)}   by tier: ${counts(stats.byTier)}`,
  );
  console.log(
    `vectors: ${stats.vectors}   history versions: ${stats.history}   queued jobs: ${counts(stats.jobs) || "none"}`,
  );
  const [newest] = await engram.memories.list({ userId: USER, limit: 1, order: "desc" });
  if (newest) {
    console.log(
      `newest memory: ${newest.id} (${newest.kind}, tier ${newest.tier}, session ${newest.sessionId})`,
    );
    console.log(`  text:    "${clip(newest.text)}"`);
    console.log(`  context: "${clip(newest.context ?? "")}" (the turn before it, indexed with it)`);
  }
}

function why(result: SearchResult): string {
  const parts: string[] = [];
  const { fulltext, vector } = result.channels;
  if (fulltext) parts.push(`fulltext #${fulltext.rank} (bm25 ${fulltext.score.toFixed(2)})`);
  if (vector) parts.push(`vector #${vector.rank} (cos ${vector.score.toFixed(2)})`);
  return parts.join(" + ");
}

/** Asks one question; true when the expected phrase is in one of the top 3 memories. */
async function ask(engram: Engram, { question, expect }: Question): Promise<boolean> {
  const results = await engram.search({ userId: USER, query: question, k: 3 });
  console.log(`\nQ: ${question}`);
  results.forEach((r, i) => {
    console.log(`   ${i + 1}. ${day(r.at)}  score ${r.score.toFixed(2)}  ${why(r)}`);
    console.log(`      ${r.memory.role ?? "memory"}: "${clip(r.text, 110)}"`);
  });
  const hit = results.findIndex((r) => r.text.toLowerCase().includes(expect.toLowerCase()));
  console.log(
    hit >= 0 ? `   found "${expect}" in result ${hit + 1}` : `   MISS: "${expect}" is not in the top 3`,
  );
  return hit >= 0;
}

async function recall(engram: Engram): Promise<{ answered: number; total: number }> {
  section("3. Recall questions (hybrid search, k = 3)");
  const raw: unknown = JSON.parse(readFileSync(new URL("recall-questions.json", DATA), "utf8"));
  const questions = questionsSchema.parse(raw);
  let answered = 0;
  for (const q of questions) if (await ask(engram, q)) answered++;
  console.log(`\n${answered}/${questions.length} questions answered with evidence in the top 3`);
  return { answered, total: questions.length };
}

async function correct(engram: Engram): Promise<void> {
  section("4. A correction keeps its history");
  const all = await engram.memories.list({ userId: USER, limit: 1000, order: "asc" });
  const target = all.find((m) => m.text.includes("He's six"));
  if (!target) throw new Error('the sample conversation no longer contains "He\'s six"; update the demo');
  console.log(`before: ${target.id} v${target.version} "${clip(target.text)}"`);
  // Biscuit's age was misremembered: the user corrects it, the old wording stays in history.
  const updated = await engram.memories.update({
    userId: USER,
    id: target.id,
    text: target.text.replace("He's six", "He's seven"),
  });
  console.log(`after:  ${updated.id} v${updated.version} "${clip(updated.text)}"`);
  for (const v of await engram.memories.history({ userId: USER, id: target.id })) {
    const changed = v.text.slice(v.text.indexOf("He's"));
    console.log(`  history v${v.version} ${v.event.padEnd(6)} recorded ${v.at}  "…${clip(changed, 40)}"`);
  }
  // The corrected text is what search indexes now: both channels were rewritten in the same write.
  const query = "Biscuit is seven";
  const [top] = await engram.search({ userId: USER, query, k: 1 });
  console.log(`search "${query}" -> ${top?.id} v${top?.memory.version} "${clip(top?.text ?? "(nothing)")}"`);
}

async function exportSize(engram: Engram): Promise<void> {
  section("5. Export");
  const dump = await engram.export({ userId: USER });
  const bytes = Buffer.byteLength(JSON.stringify(dump));
  const withVectors = dump.memories.filter((m) => m.vector !== null).length;
  console.log(
    `engram.export({ userId: "${USER}" }): ${dump.memories.length} memories (${withVectors} with vectors), ` +
      `${dump.history.length} history rows, ${(bytes / 1024).toFixed(1)} KiB of JSON (format ${dump.format} v${dump.version})`,
  );
}

async function main(): Promise<void> {
  const started = performance.now();
  console.log("Engram demo: a companion assistant's memory of one user, on the embedded store, offline.");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${DB_PATH}${suffix}`, { force: true });
  console.log(`store: ${DB_PATH} (fresh SQLite file)`);
  const engram = await createEngram({ path: DB_PATH });
  try {
    await ingest(engram, loadConversation());
    await showStored(engram);
    const { answered, total } = await recall(engram);
    await correct(engram);
    await exportSize(engram);
    section("Done");
    console.log(`${answered}/${total} recall questions answered with evidence in the top 3.`);
    console.log(
      `finished in ${((performance.now() - started) / 1000).toFixed(1)} s. Explore the store with:`,
    );
    console.log(`  pnpm engram search --db ${DB_PATH} --user ${USER} "trip with Ines"`);
    console.log(`  pnpm engram list --db ${DB_PATH} --user ${USER}`);
  } finally {
    await engram.close();
  }
}

main().catch((error: unknown) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
