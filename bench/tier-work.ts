// The deferred tier work alone (the "tier processing" figure of `pnpm bench --only perf`): 2,000 LoCoMo
// turns added 100 per call, then flush(), offline extractor, in a fresh store. Prints one JSON line, so
// that two builds can be timed side by side with an outside timer:
//   tsx --conditions=@engram/source bench/tier-work.ts [--data FILE] [--turns N]
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadBenchData } from "./bench-data.js";
import { tierBench } from "./ingest-bench.js";

const { values } = parseArgs({
  options: {
    data: { type: "string", default: "../shared/data/locomo/locomo-dev.json" },
    turns: { type: "string", default: "2000" },
  },
});
const dir = await mkdtemp(join(tmpdir(), "engram-tier-work-"));
try {
  const data = await loadBenchData(values.data as string);
  const figures = await tierBench({ dir, turns: data.turns, count: Number(values.turns) });
  console.log(JSON.stringify(figures));
} finally {
  await rm(dir, { recursive: true, force: true });
}
