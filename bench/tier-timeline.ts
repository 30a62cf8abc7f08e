// What the default tier policy (`paper`) does over a conversation, measured rather than worked out: one
// message per add, the tier job after each (as the background worker runs it in a live chat), default
// options (offline embedder, no language model). Prints, for a short and a long stream, when pages leave
// short-term, when segments are promoted and when facts appear, and which path made each fact.
//
//   pnpm exec tsx --conditions=@engram/source bench/tier-timeline.ts [--data locomo-dev.json] [--messages 2000]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parseLocomo, turnContent } from "@engram/cli/locomo";
import { createEngram, type Engram, type MemoryRecord } from "@engram/core";
import { storageOf } from "@engram/core/testing";

interface Message {
  readonly role: "user" | "assistant";
  readonly name?: string;
  readonly content: string;
  readonly at: string;
  readonly session: string;
}

const here = (path: string) => new URL(path, import.meta.url).pathname;
const DAY = 86_400_000;

/** The demo's sample conversation (Maya), as shipped. */
function sampleConversation(): Message[] {
  const text = readFileSync(here("../packages/cli/data/sample-conversation.jsonl"), "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Message);
}

/**
 * The LoCoMo dev conversations played as one user's chat, in file order: speaker A is the user. Each
 * conversation keeps its own gaps between sessions and starts three days after the previous one ended.
 */
function locomoStream(file: string, count: number): Message[] {
  const out: Message[] = [];
  let offset = 0;
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (const c of parseLocomo(JSON.parse(readFileSync(file, "utf8")))) {
    const first = Date.parse(c.turns[0]?.at ?? "");
    if (Number.isFinite(lastEnd)) offset = lastEnd + 3 * DAY - first;
    for (const t of c.turns) {
      const at = Date.parse(t.at) + offset;
      out.push({
        role: t.speaker === c.speakerA ? "user" : "assistant",
        name: t.speaker,
        content: turnContent(t),
        at: new Date(at).toISOString(),
        session: `${c.sampleId}/${t.session}`,
      });
      lastEnd = at;
      if (out.length === count) return out;
    }
  }
  return out;
}

interface Step {
  readonly shortPages: number;
  readonly midPages: number;
  readonly segments: number;
  readonly promotions: number;
  readonly current: number;
  readonly expired: number;
  /** Facts the prompt path applied: user facts whose evidence turn was screened. */
  readonly prompt: number;
  /** User facts a promotion-only engine would know by now: their evidence turn has been promoted. */
  readonly promotedEvidence: number;
}

/** Pages as the engine groups them: a user turn opens one, assistant turns in its session join it. */
function countPages(messages: readonly MemoryRecord[]): number {
  let pages = 0;
  let session: string | null | undefined;
  for (const m of messages) {
    if (m.role === "user" || m.sessionId !== session) pages++;
    session = m.sessionId;
  }
  return pages;
}

async function measure(engram: Engram, userId: string): Promise<Step> {
  const list = (input: Omit<Parameters<Engram["memories"]["list"]>[0], "userId">) =>
    engram.memories.list({ userId, limit: 100_000, order: "asc", ...input });
  const short = await list({ kinds: ["message"], tiers: ["short"] });
  const segments = await list({ kinds: ["segment"], includeExpired: false });
  const facts = await list({ kinds: ["fact"] });
  const evidence = [...new Set(facts.flatMap((f) => (f.metadata.evidence as string[]) ?? []))];
  const turns = new Map((await storageOf(engram).get({ userId }, evidence)).map((m) => [m.id, m]));
  const from = (f: MemoryRecord, mark: string) =>
    f.role === "user" &&
    ((f.metadata.evidence as string[]) ?? []).some((id) => turns.get(id)?.metadata[mark] === true);
  return {
    shortPages: countPages(short),
    midPages: segments.reduce((n, s) => n + Number(s.metadata.size ?? 0), 0),
    segments: segments.length,
    promotions: segments.reduce((n, s) => n + Number(s.metadata.promotions ?? 0), 0),
    current: facts.filter((f) => f.expiredAt === null).length,
    expired: facts.filter((f) => f.expiredAt !== null).length,
    prompt: facts.filter((f) => from(f, "screened")).length,
    promotedEvidence: facts.filter((f) => from(f, "analyzed")).length,
  };
}

const line = (n: number, s: Step) =>
  `  after ${String(n).padStart(4)} messages: short ${String(s.shortPages).padStart(2)} pages | mid ` +
  `${s.segments} segments, ${s.midPages} pages | promotions ${s.promotions} | facts ${s.current} current, ` +
  `${s.expired} expired; ${s.prompt} from the prompt path, ${s.promotedEvidence} with promoted evidence`;

async function timeline(label: string, messages: readonly Message[], checkpoints: readonly number[]) {
  const dir = mkdtempSync(join(tmpdir(), "engram-timeline-"));
  let now = new Date(messages[0]?.at ?? Date.now());
  const engram = await createEngram({ path: join(dir, "t.db"), background: false, clock: () => now });
  const started = performance.now();
  const firsts: Record<string, number> = {};
  const evictions: number[] = [];
  const shortRange = { min: Number.POSITIVE_INFINITY, max: 0 };
  let before: Step | null = null;
  try {
    console.log(`\n${label}: ${messages.length} messages`);
    for (const [i, m] of messages.entries()) {
      const n = i + 1;
      now = new Date(Date.parse(m.at) + 60_000); // tier work runs a minute after the turn
      const { role, content, at, name } = m;
      await engram.add({ userId: "u", sessionId: m.session, messages: [{ role, content, at, name }] });
      await engram.flush();
      const step = await measure(engram, "u");
      if (step.midPages > (before?.midPages ?? 0)) evictions.push(n);
      for (const [key, value] of Object.entries(step) as [keyof Step, number][]) {
        if (value > 0 && firsts[key] === undefined) firsts[key] = n;
      }
      if (evictions.length) {
        shortRange.min = Math.min(shortRange.min, step.shortPages);
        shortRange.max = Math.max(shortRange.max, step.shortPages);
      }
      if (checkpoints.includes(n) || n === messages.length) console.log(line(n, step));
      before = step;
    }
    const at = (key: keyof Step) => (firsts[key] === undefined ? "never" : `message ${firsts[key]}`);
    console.log(
      `  first fact: ${at("current")}; first fact a promotion-only engine would have: ${at("promotedEvidence")}`,
    );
    console.log(
      `  first eviction: ${at("midPages")}; evictions: ${evictions.length}; first promotion: ${at("promotions")}`,
    );
    if (evictions.length)
      console.log(`  short-term after the first eviction: ${shortRange.min} to ${shortRange.max} pages`);
    console.log(`  ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const { values } = parseArgs({
  options: {
    data: { type: "string", default: here("../../shared/data/locomo/locomo-dev.json") },
    messages: { type: "string", default: "2000" },
  },
});
const sample = sampleConversation();
await timeline("Sample conversation (the demo's), first 20 turns", sample.slice(0, 20), [2, 5, 10, 20]);
await timeline("Sample conversation, all of it", sample, [20, 50, 100]);
await timeline(
  "LoCoMo dev conversations as one user's chat",
  locomoStream(values.data, Number(values.messages)),
  [20, 50, 100, 200, 500, 1000, 1500],
);
