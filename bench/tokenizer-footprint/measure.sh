#!/bin/sh
# The token counters measured against gpt-tokenizer (docs/decisions/0006-token-counter.md): installs each
# candidate into a folder of its own under $TOKENIZERS_DIR (default .engram/bench/tokenizers), then its
# installed size, agreement on a 2,000-text corpus, RSS, and cold start and throughput side by side with
# gpt-tokenizer (farm-bench, ratios). Run from the repository root: sh bench/tokenizer-footprint/measure.sh
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
N="$HERE/../../node_modules/.bin/node"
export TOKENIZERS_DIR="${TOKENIZERS_DIR:-$HERE/../../.engram/bench/tokenizers}"
mkdir -p "$TOKENIZERS_DIR/results"
for p in gpt-tokenizer js-tiktoken tiktoken ai-tokenizer; do
  if [ ! -d "$TOKENIZERS_DIR/$p/node_modules" ]; then
    mkdir -p "$TOKENIZERS_DIR/$p"
    (cd "$TOKENIZERS_DIR/$p" && npm init -y >/dev/null && npm install --no-audit --no-fund "$p@latest" >/dev/null)
  fi
  echo "$p: $(du -sb "$TOKENIZERS_DIR/$p/node_modules" | cut -f1) bytes installed"
done
"$N" "$HERE/gen-corpus.cjs" > "$TOKENIZERS_DIR/corpus.json"
CANDIDATES="gpt-tokenizer gpt-tokenizer-o200k js-tiktoken tiktoken tiktoken-lite ai-tokenizer"
for c in $CANDIDATES; do "$N" "$HERE/run.cjs" "$c" counts; done
"$N" "$HERE/compare.cjs"
for c in none $CANDIDATES; do
  echo "$c rss bytes: $("$N" "$HERE/run.cjs" "$c" rss) $("$N" "$HERE/run.cjs" "$c" rss) $("$N" "$HERE/run.cjs" "$c" rss)"
done
for c in $CANDIDATES; do
  echo "== $c: cold start, then throughput (A = $c, B = gpt-tokenizer)"
  farm-bench -n 10 --vs "$N $HERE/run.cjs gpt-tokenizer cold" -- "$N" "$HERE/run.cjs" "$c" cold
  farm-bench -n 10 --timeout 300 --vs "$N $HERE/run.cjs gpt-tokenizer thr" -- "$N" "$HERE/run.cjs" "$c" thr
done
"$N" "$HERE/count-only.cjs" 10
