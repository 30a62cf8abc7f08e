// Prints the facts the offline extractor reads from each statement given (argv or a JSON file of
// {text, facts} items with --file, then only misses/extras are printed).
import { readFileSync } from "node:fs";
import { offlineExtractor } from "./offline-extractor.js";

const args = process.argv.slice(2);
const at = "2026-01-01T00:00:00.000Z";
async function read(text: string) {
  const record = {
    id: "m1",
    userId: "u",
    kind: "message",
    tier: "short",
    text,
    role: "user",
    createdAt: at,
    updatedAt: at,
    metadata: {},
    vector: null,
  } as never;
  const facts = await offlineExtractor.persona([record], []);
  return facts
    .filter((f) => f.subject === "user")
    .map((f) => `${f.negated ? "NOT " : ""}${f.slot}=${f.value}${f.single ? "" : "*"}`);
}
if (args[0] === "--file") {
  const items = JSON.parse(readFileSync(args[1] as string, "utf8")) as Array<{
    text: string;
    facts: Array<{ slot: string; value: string }>;
  }>;
  let tp = 0,
    fn = 0,
    fp = 0;
  for (const it of items) {
    const got = await read(it.text);
    const want = it.facts.map((f) => `${f.slot}=${f.value}`);
    const hit = want.filter((w) => got.some((g) => g.toLowerCase().includes(w.toLowerCase())));
    tp += hit.length;
    fn += want.length - hit.length;
    const extra = got.filter((g) => !want.some((w) => g.toLowerCase().includes(w.toLowerCase())));
    fp += extra.length;
    if (hit.length < want.length || extra.length)
      console.log(
        `${hit.length}/${want.length} ${JSON.stringify(it.text)}\n    want ${want.join(" | ")}\n    got  ${got.join(" | ")}`,
      );
  }
  console.log({ tp, fn, fp });
} else for (const t of args) console.log(JSON.stringify(t), "->", (await read(t)).join(" | "));
