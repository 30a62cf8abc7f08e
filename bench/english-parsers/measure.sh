#!/bin/sh
# Two maintained English NLP libraries measured on the persona-facts statements for a parse-based
# extractor: installs each into a folder of its own under $PARSERS_DIR (default .engram/bench/parsers),
# prints its installed size, then names.mjs (name tagging per half, noise, load time, throughput).
# Run from the repository root: sh bench/english-parsers/measure.sh
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
N="$HERE/../../node_modules/.bin/node"
export PARSERS_DIR="${PARSERS_DIR:-$HERE/../../.engram/bench/parsers}"
install() {
  if [ ! -d "$PARSERS_DIR/$1/node_modules" ]; then
    mkdir -p "$PARSERS_DIR/$1"
    (cd "$PARSERS_DIR/$1" && npm init -y >/dev/null && shift && npm install --no-audit --no-fund "$@" >/dev/null)
  fi
  echo "$1: $(du -sb "$PARSERS_DIR/$1/node_modules" | cut -f1) bytes installed"
}
install compromise compromise@14.20.0
install wink wink-nlp@2.4.0 wink-eng-lite-web-model@1.8.1
for c in compromise wink; do "$N" "$HERE/names.mjs" "$c" "$HERE/../data/persona-facts.json"; done
