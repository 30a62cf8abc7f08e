// The Qdrant adapter figures alone, without the rest of `pnpm bench`; prints a table, and JSON with --json:
//   pnpm tsx --conditions=@engram/source bench/qdrant-alone.ts [--turns 500] [--json] [--data FILE]
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadBenchData } from "./bench-data.js";
import { qdrantBench } from "./qdrant.js";
import { qdrantTable } from "./qdrant-report.js";

const { values } = parseArgs({
  options: {
    turns: { type: "string", default: "500" },
    json: { type: "boolean", default: false },
    data: {
      type: "string",
      default: fileURLToPath(new URL("../../shared/data/locomo/locomo-dev.json", import.meta.url)),
    },
  },
});
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
console.error(`[bench] Qdrant adapter on the protocol double; load average ${load()}`);
const data = await loadBenchData(values.data as string);
const figures = await qdrantBench({ turns: data.turns, count: Number(values.turns) });
console.error(`[bench] done; load average ${load()}`);
console.log(values.json ? JSON.stringify(figures, null, 2) : qdrantTable(figures));
