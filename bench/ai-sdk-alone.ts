// The AI SDK middleware figures alone, without the rest of `pnpm bench`; prints them as JSON:
//   pnpm tsx --conditions=@engram/source bench/ai-sdk-alone.ts [--quick] [--data FILE]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { aiSdkBench } from "./ai-sdk.js";
import { FULL, QUICK } from "./bench-config.js";
import { loadBenchData, otherQuestions, spread } from "./bench-data.js";
import { embedTexts } from "./embed-bench.js";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    data: {
      type: "string",
      default: fileURLToPath(new URL("../../shared/data/locomo/locomo-dev.json", import.meta.url)),
    },
  },
});
const config = values.quick ? QUICK : FULL;
const dir = mkdtempSync(join(tmpdir(), "engram-bench-ai-sdk-"));
try {
  const data = await loadBenchData(values.data as string);
  const turns = spread(data.turns, config.poolSize);
  const asked = spread(data.questions, config.questions);
  console.error(`[bench] embedding ${turns.length} turns and ${asked.length} questions with USE-lite`);
  const embedded = await embedTexts(
    turns.map((t) => t.text),
    asked,
  );
  const pool = { turns, vectors: embedded.turnVectors };
  const warmup = otherQuestions(data.questions, asked, config.questions);
  const figures = await aiSdkBench({ dir, pool, embedded, questions: asked, warmup, counts: config.counts });
  console.log(JSON.stringify(figures, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
