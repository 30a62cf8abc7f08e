#!/usr/bin/env bash
# SIGKILLs one `engram ingest` (run from source) of a 5,000-turn file at a random moment, ROUNDS times; counts what stayed.
# Usage: scripts/kill-ingest.sh [ROUNDS]   (from the repository root)
set -u
rounds=${1:-10}
d=$(mktemp -d)
node -e '
  const lines = [];
  for (let i = 0; i < 5000; i++) lines.push(JSON.stringify({ role: i % 2 ? "assistant" : "user",
    content: `turn ${i}: the ferry leaves at ${i % 24}:00`, at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    session: `s${Math.floor(i / 100)}` }));
  require("node:fs").writeFileSync(process.argv[1] + "/big.jsonl", lines.join("\n") + "\n");' "$d"
for r in $(seq 1 "$rounds"); do
  rm -f "$d"/engram.db*
  node --conditions=@engram/source --import tsx packages/cli/src/bin.ts ingest --user u "$d/big.jsonl" \
    --db "$d/engram.db" --no-embed >/dev/null 2>&1 &
  pid=$!
  delay=$(node -e 'console.log((1.5 + Math.random() * 3).toFixed(2))')
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  if [ -f "$d/engram.db" ]; then
    n=$(pnpm -s engram stats --db "$d/engram.db" --no-embed --json 2>/dev/null | node -e \
      'const s = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(s.byKind.message ?? 0, JSON.stringify(s.byKind))')
  else n="0 (no file yet)"; fi
  echo "round $r: killed after ${delay}s, messages stored: $n"
done
rm -rf "$d"
