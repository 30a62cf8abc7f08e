// node count-only.cjs [runs=10] : counting-only time (load excluded), candidate and gpt-tokenizer
// run alternately in fresh processes (A B A B ...), ratio of medians and median of pairwise ratios.
const { execFileSync } = require("child_process");
const runs = +process.argv[2] || 10;
const N = process.execPath;
const one = (c) =>
  +execFileSync(N, [__dirname + "/run.cjs", c, "thrtime"])
    .toString()
    .split(" ")[0];
const med = (a) => {
  a = [...a].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 ? a[m] : (a[m - 1] + a[m]) / 2;
};
for (const c of [
  "gpt-tokenizer",
  "gpt-tokenizer-o200k",
  "js-tiktoken",
  "tiktoken",
  "tiktoken-lite",
  "ai-tokenizer",
]) {
  one(c);
  one("gpt-tokenizer"); // warm-up
  const A = [],
    B = [];
  for (let i = 0; i < runs; i++) {
    A.push(one(c));
    B.push(one("gpt-tokenizer"));
  }
  const r = A.map((a, i) => a / B[i]);
  console.log(
    c.padEnd(22),
    "A median ms",
    med(A).toFixed(0),
    "B(gpt-tokenizer) median ms",
    med(B).toFixed(0),
    "ratio of medians",
    (med(A) / med(B)).toFixed(2),
    "pairwise ratio min/med/max",
    Math.min(...r).toFixed(2),
    med(r).toFixed(2),
    Math.max(...r).toFixed(2),
  );
}
