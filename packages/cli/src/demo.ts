// `pnpm demo`: the tiered memory story, offline. The sample conversation flows session by session through
// short-term pages, mid-term segments that heat up and get promoted, and long-term facts and a profile
// (explicit statements as they are said, the rest at promotion); a later message supersedes a fact, a
// feedback correction is applied, and recall questions are answered with the memory context and its
// evidence. Everything printed is read back from the store.
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import {
  createEngram,
  type Engram,
  type IdGenerator,
  POLICY_PRESETS,
  type Policy,
  type PolicyOption,
  resolvePolicy,
} from "@engram/core";
import { loadQuestions, loadSessions, type Session } from "./demo-data.js";
import { day, say, seconds, section } from "./demo-format.js";
import { applyCorrection, showFacts, showPointInTime, showProfile } from "./demo-memory.js";
import { askAll, type RecallScore } from "./demo-recall.js";
import {
  changeLines,
  segmentTable,
  snapshot,
  type TierSnapshot,
  tierLine,
  totalPromotions,
  visitLines,
} from "./demo-tiers.js";

const USER = "maya";
const DB_PATH = ".engram/demo.db";
/**
 * The paper's constants, with a shorter short-term queue so that nine short sessions reach every tier,
 * and five facts per query so that a 600-token context still has room for retrieved turns.
 */
const POLICY = {
  preset: "paper",
  shortTermCapacity: 4,
  evictionBatch: 4,
  retrieveFacts: 5,
} as const satisfies PolicyOption;
const BUDGET_TOKENS = 600;
const CORRECTION = { text: "Actually I work at Lumen Grid now, not Freightly.", trait: "works_at" };
const BEFORE_THE_MOVE = "2026-02-01T00:00:00.000Z";

/** The demo's clock follows the conversation: each session is processed a minute after its last turn. */
const clock = { now: new Date("2026-01-01T00:00:00Z") };

function describePolicy(policy: Policy): void {
  const { preset, ...overrides } = POLICY;
  const paper = Object.keys(overrides).map((k) => `${k} ${POLICY_PRESETS[preset][k as keyof Policy]}`);
  say(`policy: preset "${preset}" with ${JSON.stringify(overrides)} (the paper: ${paper.join(", ")})`);
  say(
    `  short-term: the last ${policy.shortTermCapacity} pages (a user turn and its answers); once ` +
      `${policy.evictionBatch} more are waiting, all older pages move to mid-term in one batch\n` +
      `  mid-term: a page joins the best segment when cos(summary) + Jaccard(keywords) >= ${policy.theta}\n` +
      `  heat = ${policy.heatA}*visits + ${policy.heatB}*pages + ${policy.heatC}*exp(-dt / ` +
      `${policy.recencyMuSeconds} s); a segment at heat >= ${policy.heatThreshold} is promoted: its new\n` +
      "  pages go through the offline rule-based fact extractor into long-term facts, and its counters reset\n" +
      "  prompt path: explicit first-person statements in user turns become facts when the turn is\n" +
      "  processed, whatever the tiers do; promotion later finds them applied and adds no duplicate",
  );
}

async function ingest(engram: Engram, sessions: readonly Session[], policy: Policy): Promise<TierSnapshot> {
  section("1. The conversation flows through the tiers");
  const turns = sessions.reduce((n, s) => n + s.turns.length, 0);
  say(`${turns} turns in ${sessions.length} sessions; after each session: add, then flush`);
  say("(flush runs the queued tier work now, as the background worker would):\n");
  let before = await snapshot(engram, USER);
  for (const session of sessions) {
    const first = session.turns[0]?.at ?? "";
    clock.now = new Date(Date.parse(session.turns.at(-1)?.at ?? first) + 60_000);
    const messages = session.turns.map(({ role, content, at }) => ({ role, content, at }));
    await engram.add({ userId: USER, sessionId: session.id, messages });
    await engram.flush();
    const after = await snapshot(engram, USER);
    const label = `${session.id.padEnd(3)} ${day(first)} ${String(session.turns.length).padStart(2)} turns`;
    say(`${label} -> ${tierLine(after, clock.now, policy)}`);
    for (const line of await changeLines(engram, USER, before, after)) say(`      ${line}`);
    before = after;
  }
  return before;
}

/** Applies the visits the recall questions queued, and shows how they heated segments up. */
async function applyVisits(engram: Engram, before: TierSnapshot, policy: Policy): Promise<TierSnapshot> {
  section("6. Retrieval heats segments up");
  const { completed } = await engram.flush();
  const after = await snapshot(engram, USER);
  say(
    `flush: ${completed} queued jobs done (a retrieve queues a visit to the segment of every page it found)`,
  );
  for (const line of visitLines(before, after, clock.now, policy)) say(`  ${line}`);
  const changes = await changeLines(engram, USER, before, after);
  for (const line of changes) say(`  ${line}`);
  if (changes.length === 0) say("  no segment reached the threshold with unanalysed pages");
  return after;
}

async function summary(
  engram: Engram,
  run: { final: TierSnapshot; score: RecallScore; started: number },
): Promise<void> {
  section("Done");
  const { final, score } = run;
  const stats = await engram.stats({ userId: USER });
  const kinds = Object.entries(stats.byKind).map(([kind, n]) => `${kind} ${n}`);
  const expired = final.facts.filter((f) => f.expiredAt !== null).length;
  const current = final.facts.length - expired;
  say(`memories ${stats.memories} (${kinds.join(", ")}); promotions ${totalPromotions(final)}`);
  say(`facts ${current} current, ${expired} expired (kept with their history)`);
  const avg = score.tokens.reduce((a, b) => a + b, 0) / Math.max(1, score.tokens.length);
  say(`recall: ${score.answered}/${score.total} answers in the context, ${avg.toFixed(0)} tokens on average`);
  say(`finished in ${seconds(run.started)}. Explore the store with:`);
  say(`  pnpm engram profile --db ${DB_PATH} --user ${USER}`);
  say(`  pnpm engram list --db ${DB_PATH} --user ${USER} --kind segment`);
  const replaced = final.facts.find((f) => f.expiredAt !== null && f.metadata.single === true);
  if (replaced) say(`  pnpm engram show --db ${DB_PATH} --user ${USER} ${replaced.id}`);
  say(`  pnpm engram context --db ${DB_PATH} --user ${USER} "trip with Ines"`);
}

/** Ids from a counter, so every run prints the same ids (the README quotes this output). */
function demoIds(): IdGenerator {
  let n = 0;
  return () => `mem_${createHash("sha256").update(`demo-${++n}`).digest("hex").slice(0, 32)}`;
}

async function main(): Promise<void> {
  const started = performance.now();
  say("Engram demo: a companion assistant's memory of one user, tiered, offline.");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${DB_PATH}${suffix}`, { force: true });
  const policy = resolvePolicy(POLICY);
  say(`store: ${DB_PATH} (fresh SQLite file); the clock follows the conversation`);
  describePolicy(policy);
  const engram = await createEngram({
    path: DB_PATH,
    policy: POLICY,
    background: false,
    clock: () => clock.now,
    ids: demoIds(),
  });
  try {
    const ingested = await ingest(engram, loadSessions(), policy);
    section("2. Mid-term: segments, hottest first (heat = visits + pages + recency)");
    say(segmentTable(ingested.segments, clock.now, policy));
    section("3. Long-term: the profile and the facts behind it");
    say(`engram.profile({ userId: "${USER}" }):`);
    await showProfile(engram, USER);
    say(
      `\nevery fact, current and expired (validFrom/validTo: event time; expiredAt: when Engram learned it):`,
    );
    await showFacts(engram, USER);
    section("4. A feedback correction");
    clock.now = new Date("2026-02-25T09:00:00Z");
    await applyCorrection(engram, { userId: USER, ...CORRECTION });
    section(`5. Recall questions: engram.retrieve within ${BUDGET_TOKENS} tokens`);
    const beforeVisits = await snapshot(engram, USER);
    const score = await askAll(engram, {
      userId: USER,
      questions: loadQuestions(),
      budgetTokens: BUDGET_TOKENS,
    });
    say(`\n${score.answered}/${score.total} answers in the context`);
    const final = await applyVisits(engram, beforeVisits, policy);
    section("7. The profile at a point in time");
    say(`engram.profile({ userId: "${USER}", at: "${BEFORE_THE_MOVE}" }) next to the profile now`);
    say("(`at` is system time: the profile as Engram knew it then)");
    await showPointInTime(engram, USER, BEFORE_THE_MOVE);
    await summary(engram, { final, score, started });
  } finally {
    await engram.close();
  }
}

main().catch((error: unknown) => {
  say(`demo failed: ${error instanceof Error ? error.message : String(error)}`, process.stderr);
  process.exitCode = 1;
});
