#!/usr/bin/env bash
# Starts N `engram ingest` processes at once on a new database, each with its own JSONL file of TURNS
# turns (same shape, different text; --same: all the same file for one user), then reports failures,
# how many turns were stored, and whether running one file again changes `engram stats`.
# Usage: scripts/concurrent-ingest.sh N TURNS [--same]   (from the repository root)
set -u
n=${1:?N processes}
turns=${2:?TURNS per file}
same=${3:-}
dir=$(mktemp -d)
db="$dir/engram.db"
engram() { pnpm -s engram "$@" --db "$db" --no-embed; }

node -e '
  const [dir, n, turns] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
  for (let f = 0; f < n; f++) {
    const lines = [];
    for (let i = 0; i < turns; i++) {
      lines.push(JSON.stringify({
        role: i % 2 ? "assistant" : "user",
        content: `file ${f} turn ${i}: the ferry to the island leaves at ${i % 24}:00, pier ${i % 7}`,
        at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
        session: `s${Math.floor(i / 100)}`,
      }));
    }
    require("node:fs").writeFileSync(`${dir}/u${f}.jsonl`, lines.join("\n") + "\n");
  }' "$dir" "$n" "$turns"

file() { if [ -n "$same" ]; then echo "$dir/u0.jsonl"; else echo "$dir/u$1.jsonl"; fi; }
user() { if [ -n "$same" ]; then echo u0; else echo "u$1"; fi; }

started=$(date +%s%N)
pids=()
for i in $(seq 0 $((n - 1))); do
  engram ingest --user "$(user "$i")" "$(file "$i")" >"$dir/out$i" 2>"$dir/err$i" &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=$((failed + 1)); done
echo "processes: $n, failed: $failed, wall: $((($(date +%s%N) - started) / 1000000)) ms"
# Each process's error lines, counted (progress bars and pnpm's echo of the command left out).
cat "$dir"/err* | tr '\r' '\n' | grep -v -e '^ingest \[' -e '^\$ ' -e '^$' | sort | uniq -c
stats() { engram stats --json 2>/dev/null | node -e 'const s = JSON.parse(require("fs").readFileSync(0, "utf8"));
  console.log(JSON.stringify({ messages: s.byKind.message ?? 0, segments: s.byKind.segment ?? 0,
    memories: s.memories, history: s.history, edges: s.edges, jobs: s.jobs }))'; }
if [ -n "$same" ]; then expected=$turns; else expected=$((n * turns)); fi
before=$(stats)
echo "stats: $before (expected messages: $expected)"
engram ingest --user "$(user 0)" "$(file 0)" 2>/dev/null
after=$(stats)
[ "$before" = "$after" ] && echo "rerun: stats unchanged" || echo "rerun: stats CHANGED to $after"
rm -rf "$dir"
