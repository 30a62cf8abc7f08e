// The query path as one process: the LoCoMo dev split stored full-text only (no model, so embedding does
// not drown the rest), its tier work run, then every question three times through retrieve and search.
// Made to be timed whole, old and new code alternating (docs/benchmarks.md, "Checking a refactor"):
//   pnpm tsx --conditions=@engram/source bench/query-loop.ts [--data FILE]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createEngram } from "@engram/core";

interface Conversation {
  readonly sample_id: string;
  readonly conversation: Record<string, unknown> & { speaker_a: string };
  readonly qa: readonly { question: string }[];
}

const { values } = parseArgs({
  options: { data: { type: "string", default: "../shared/data/locomo/locomo-dev.json" } },
});
const data = JSON.parse(readFileSync(values.data as string, "utf8")) as Conversation[];
const engram = await createEngram({ path: ":memory:", embedder: null, background: false });
const questions: { userId: string; query: string }[] = [];
for (const { sample_id: userId, conversation, qa } of data) {
  for (let s = 1; conversation[`session_${s}`]; s++) {
    const turns = conversation[`session_${s}`] as { speaker: string; text: string }[];
    await engram.add({
      userId,
      sessionId: `s${s}`,
      messages: turns.map((t) => ({
        role: t.speaker === conversation.speaker_a ? ("user" as const) : ("assistant" as const),
        name: t.speaker,
        content: t.text,
      })),
    });
  }
  await engram.flush();
  for (const { question } of qa) questions.push({ userId, query: question });
}
let shown = 0;
for (let round = 0; round < 3; round++)
  for (const q of questions) {
    shown += (await engram.retrieve(q)).text.length;
    shown += (await engram.search({ ...q, limit: 10 })).length;
  }
await engram.close();
console.log(`${questions.length} questions, 3 rounds, ${shown} characters and results shown`);
