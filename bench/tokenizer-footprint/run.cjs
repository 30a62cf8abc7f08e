// Usage: node run.cjs <candidate> <mode>
//   mode cold   : load tokenizer, count one short string, print the count
//   mode rss    : like cold, then print process.memoryUsage().rss in bytes
//   mode thr    : load tokenizer + corpus.json, count every text once, print total
//   mode thrtime: load, then print the in-process ms of one pass over the corpus (load excluded)
//   mode counts : like thr, but write counts-<candidate>.json (per-text counts)
// Candidates are required lazily: only the one named is ever loaded.
"use strict";
const { createRequire } = require("module");
const path = require("path");
// The candidates, each installed in a folder of its own there by measure.sh.
const ROOT = process.env.TOKENIZERS_DIR || path.join(__dirname, "..", "..", ".engram", "bench", "tokenizers");
const req = (dir) => createRequire(path.join(ROOT, dir, "package.json"));
const [cand, mode] = process.argv.slice(2);

function load(c) {
  switch (c) {
    case "none":
      return (s) => s.length; // empty baseline, loads nothing
    case "gpt-tokenizer": {
      // current: main entry (o200k_base)
      const { countTokens } = req("gpt-tokenizer")("gpt-tokenizer");
      const opts = { disallowedSpecial: new Set() };
      return (s) => countTokens(s, opts);
    }
    case "gpt-tokenizer-o200k": {
      // per-encoding entry
      const { countTokens } = req("gpt-tokenizer")("gpt-tokenizer/encoding/o200k_base");
      const opts = { disallowedSpecial: new Set() };
      return (s) => countTokens(s, opts);
    }
    case "js-tiktoken": {
      // lite + o200k ranks only
      const r = req("js-tiktoken");
      const { Tiktoken } = r("js-tiktoken/lite");
      const o200k = r("js-tiktoken/ranks/o200k_base");
      const enc = new Tiktoken(o200k.default || o200k);
      return (s) => enc.encode(s, [], []).length; // no special tokens allowed, none disallowed (= plain text)
    }
    case "tiktoken": {
      // WASM, full build
      const { get_encoding } = req("tiktoken")("tiktoken");
      const enc = get_encoding("o200k_base");
      process.on("exit", () => enc.free());
      return (s) => enc.encode(s, [], []).length;
    }
    case "tiktoken-lite": {
      // WASM, lite build + o200k ranks json only
      const r = req("tiktoken");
      const { Tiktoken } = r("tiktoken/lite");
      const m = r("tiktoken/encoders/o200k_base.json");
      const enc = new Tiktoken(m.bpe_ranks, m.special_tokens, m.pat_str);
      process.on("exit", () => enc.free());
      return (s) => enc.encode(s, [], []).length;
    }
    case "ai-tokenizer": {
      const r = req("ai-tokenizer");
      const { Tokenizer } = r("ai-tokenizer");
      const o200k = r("ai-tokenizer/encoding/o200k_base");
      const tok = new Tokenizer(o200k);
      return (s) => tok.encode(s, [], []).length; // tok.count(s) would throw on "<|endoftext|>"
    }
    default:
      throw new Error("unknown candidate " + c);
  }
}

const count = load(cand);
if (mode === "cold" || mode === "rss") {
  const n = count("Hello, world! How many tokens is this short string? 🙂");
  if (mode === "rss") console.log(process.memoryUsage().rss);
  else console.log(n);
} else if (mode === "thrtime") {
  // in-process: ms for one pass over the corpus, load excluded
  const texts = require(path.join(ROOT, "corpus.json"));
  const t0 = performance.now();
  let total = 0;
  for (let i = 0; i < texts.length; i++) total += count(texts[i]);
  console.log((performance.now() - t0).toFixed(1), total);
} else if (mode === "thr" || mode === "counts") {
  const texts = require(path.join(ROOT, "corpus.json"));
  const out = new Array(texts.length);
  let total = 0;
  for (let i = 0; i < texts.length; i++) {
    out[i] = count(texts[i]);
    total += out[i];
  }
  if (mode === "counts")
    require("fs").writeFileSync(path.join(ROOT, `counts-${cand}.json`), JSON.stringify(out));
  console.log(total);
} else throw new Error("mode?");
