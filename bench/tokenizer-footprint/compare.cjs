// node compare.cjs : per-text agreement of every counts-*.json with counts-gpt-tokenizer.json
const fs = require("fs");
const path = require("path");
const ROOT = process.env.TOKENIZERS_DIR || path.join(__dirname, "..", "..", ".engram", "bench", "tokenizers");
const base = require(path.join(ROOT, "counts-gpt-tokenizer.json"));
const texts = require(path.join(ROOT, "corpus.json"));
for (const f of fs.readdirSync(ROOT).filter((f) => /^counts-.*\.json$/.test(f))) {
  const c = require(path.join(ROOT, f));
  const mism = [];
  for (let i = 0; i < base.length; i++) if (c[i] !== base[i]) mism.push(i);
  console.log(
    f.padEnd(34),
    "texts",
    c.length,
    "mismatches",
    mism.length,
    mism
      .slice(0, 2)
      .map((i) => `#${i} ${c[i]} vs ${base[i]}: ${JSON.stringify(texts[i].slice(0, 80))}`)
      .join(" | "),
  );
}
