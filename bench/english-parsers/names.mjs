// node names.mjs compromise|wink DATA_FILE : how well an English NLP library tags the names the persona-facts
// statements give (a person's, a partner's, a relative's, a pet's), as the slot logic of a parse-based
// extractor would need them: a gold name is found when every one of its words is tagged as a proper noun.
// Also the proper-noun tags it puts on statements that state nothing (noise), load time and throughput.
// Halves as `engram eval facts`: within each topic, in id order, statements alternate.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const [candidate, dataFile] = process.argv.slice(2);
const dir = join(process.env.PARSERS_DIR, candidate, "node_modules");
const require = createRequire(join(dir, "x.js"));
const statements = JSON.parse(readFileSync(dataFile, "utf8"));

const loadStart = performance.now();
let tagNames;
if (candidate === "compromise") {
  const nlp = require("compromise");
  const NAME = new Set(["ProperNoun", "Person", "FirstName", "LastName", "MaleName", "FemaleName"]);
  tagNames = (text) =>
    nlp(text)
      .terms()
      .json()
      .filter((t) => t.terms[0].tags.some((tag) => NAME.has(tag)))
      .map((t) => t.terms[0].normal);
} else {
  const winkNLP = require("wink-nlp");
  const model = require("wink-eng-lite-web-model");
  const wink = winkNLP(model);
  const its = wink.its;
  tagNames = (text) => {
    const tokens = wink.readDoc(text).tokens();
    const values = tokens.out(its.normal);
    const pos = tokens.out(its.pos);
    return values.filter((_, i) => pos[i] === "PROPN");
  };
}
tagNames("warm up");
const loadMs = performance.now() - loadStart;

const isName = (slot) => slot === "name" || slot === "partner" || slot.endsWith(".name");
const byTopic = new Map();
for (const s of statements) byTopic.set(s.topic, [...(byTopic.get(s.topic) ?? []), s]);
const half = new Map();
for (const list of byTopic.values()) {
  const ordered = [...list].sort((a, b) => a.id.localeCompare(b.id));
  for (const [i, s] of ordered.entries()) half.set(s.id, i % 2 === 0 ? "tune" : "check");
}

const score = { tune: { gold: 0, found: 0 }, check: { gold: 0, found: 0 } };
let noise = 0;
let nothing = 0;
const runStart = performance.now();
for (const s of statements) {
  const tagged = new Set(tagNames(s.text).map((w) => w.toLowerCase().replace(/[^\p{L}'-]/gu, "")));
  const names = (s.facts ?? []).filter((f) => isName(f.slot)).map((f) => f.value);
  for (const name of names) {
    score[half.get(s.id)].gold++;
    if (
      name
        .toLowerCase()
        .split(/\s+/)
        .every((w) => tagged.has(w))
    )
      score[half.get(s.id)].found++;
  }
  if ((s.facts ?? []).length === 0) {
    nothing++;
    noise += [...tagged].filter((w) => w !== "i" && w !== "").length;
  }
}
const runMs = performance.now() - runStart;
const r = (h) => `${score[h].found}/${score[h].gold} (${(score[h].found / score[h].gold).toFixed(3)})`;
console.log(
  `${candidate}: names found: tuning ${r("tune")}, check ${r("check")}; proper-noun tags on the ${nothing} statements ` +
    `that state nothing: ${noise}; load ${loadMs.toFixed(0)} ms; ${statements.length} statements in ${runMs.toFixed(0)} ms`,
);
