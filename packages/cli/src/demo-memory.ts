// The demo's long-term sections: the profile with its evidence, every fact with its validity and
// supersession edges, a feedback correction with the history it leaves, and the profile at a past time.
import type { Engram, MemoryRecord, ProfileTrait } from "@engram/core";
import { formatTable, shortTime } from "./cli-output.js";
import { day, findMemory, quote, say, shortId, supersedesEdges } from "./demo-format.js";
import { expiryNote } from "./demo-tiers.js";

const ALL = 100_000;

/** An evidence message: `mem_5ba02902 s7 user 2026-02-11 "Guten Abend! I moved to Berlin…"`. */
async function evidenceText(engram: Engram, userId: string, ids: readonly string[]): Promise<string> {
  const [first] = ids;
  if (!first) return "-";
  const m = await engram.memories.get({ userId, id: first });
  const where = m.sessionId ?? (m.metadata.feedback ? "feedback" : "-");
  const more = ids.length > 1 ? ` (+${ids.length - 1} more)` : "";
  return `${shortId(m.id)} ${where} ${m.role ?? ""} ${day(m.validFrom)} ${quote(m.text, 44)}${more}`;
}

export async function showProfile(engram: Engram, userId: string): Promise<ProfileTrait[]> {
  const traits = await engram.profile({ userId });
  const rows: string[][] = [];
  for (const t of traits) {
    const evidence = await evidenceText(engram, userId, t.evidence);
    rows.push([t.key, t.value, t.confidence.toFixed(2), day(t.since), evidence]);
  }
  say(formatTable(["trait", "value", "conf", "since", "evidence (first message)"], rows));
  return traits;
}

/** Every fact, current and expired, with event time (valid) and system time (expired), then the edges. */
export async function showFacts(engram: Engram, userId: string): Promise<MemoryRecord[]> {
  const facts = await engram.memories.list({ userId, kinds: ["fact"], limit: ALL, order: "asc" });
  const edges = await supersedesEdges(engram, userId, facts);
  const replaced = new Set(edges.map((e) => e.to));
  const status = (f: MemoryRecord) =>
    f.expiredAt === null ? "current" : replaced.has(f.id) ? "superseded" : "retracted";
  const rows = facts.map((f) => [
    shortId(f.id),
    status(f),
    day(f.validFrom),
    day(f.validTo),
    shortTime(f.expiredAt),
    f.role === "assistant" ? `(assistant) ${f.text}` : f.text,
  ]);
  say(formatTable(["fact", "status", "validFrom", "validTo", "expiredAt", "text"], rows));
  say(
    `\nsupersedes edges (new -> old): ${edges.map((e) => `${shortId(e.from)} -> ${shortId(e.to)}`).join(", ") || "none"}`,
  );
  for (const f of facts.filter((x) => x.expiredAt !== null)) {
    say(`  ${await expiryNote(engram, userId, f, facts)}`);
  }
  return facts;
}

const traitValues = (traits: readonly ProfileTrait[], key: string) =>
  traits
    .filter((t) => t.key === key)
    .map((t) => t.value)
    .join(", ") || "-";

/** Applies a correction and shows the trait before and after, and the history of what it replaced. */
export async function applyCorrection(
  engram: Engram,
  input: { userId: string; text: string; trait: string },
): Promise<void> {
  const { userId, text, trait } = input;
  say(`profile ${trait} before: ${traitValues(await engram.profile({ userId }), trait)}`);
  say(`engram.feedback({ userId: "${userId}", text: ${JSON.stringify(text)} })`);
  const result = await engram.feedback({ userId, text });
  const created = (await Promise.all(result.created.map((id) => findMemory(engram, userId, id)))).filter(
    (f) => f !== undefined,
  );
  say(`  stored the correction as message ${shortId(result.feedbackId)} (kept as evidence)`);
  for (const f of created) say(`  created  ${shortId(f.id)} ${f.text}`);
  for (const id of result.superseded) {
    const old = await findMemory(engram, userId, id);
    say(`  expired  ${shortId(id)} ${old?.text ?? "(gone)"}`);
  }
  if (result.created.length + result.superseded.length === 0) say("  MISS: nothing was changed");
  say(`  ${result.affected.length} raw turns mention it; they stay as they were said`);
  say(`profile ${trait} after:  ${traitValues(await engram.profile({ userId }), trait)}`);
  for (const id of result.superseded) {
    say(`\nengram.memories.history({ userId: "${userId}", id: "${id}" }):`);
    for (const v of await engram.memories.history({ userId, id })) {
      const by = v.metadata.supersededBy ? `  supersededBy ${shortId(String(v.metadata.supersededBy))}` : "";
      say(`  v${v.version} ${v.event.padEnd(9)} ${shortTime(v.at)}  ${quote(v.text, 50)}${by}`);
    }
  }
}

/** The profile as Engram knew it at a past moment (system time), next to the profile now. */
export async function showPointInTime(engram: Engram, userId: string, at: string): Promise<void> {
  const then = await engram.profile({ userId, at });
  const now = await engram.profile({ userId });
  const keys = [...new Set([...then, ...now].map((t) => t.key))];
  const rows = keys.map((key) => {
    const [a, b] = [traitValues(then, key), traitValues(now, key)];
    const kept = then.filter((t) => t.key === key).every((t) => now.some((n) => n.factId === t.factId));
    return [key, a, b, a === b ? "" : a === "-" ? "learned since" : kept ? "added" : "changed"];
  });
  say(formatTable(["trait", `at ${day(at)}`, "now", ""], rows));
}
