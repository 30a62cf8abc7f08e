import { Session } from "node:inspector/promises";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

/** Self time of one place in the code, as a share of the profiled time. */
export interface ProfileRow {
  readonly where: string;
  readonly ms: number;
  readonly share: number;
}

export interface CpuProfile {
  readonly totalMs: number;
  /** Grouped by source file (a package for dependencies), largest first. */
  readonly byFile: readonly ProfileRow[];
  /** Grouped by function, largest first. */
  readonly byFunction: readonly ProfileRow[];
}

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** A readable place: repository path, dependency package, or V8's own buckets ("(garbage collector)"). */
function fileOf(url: string, name: string): string {
  if (url === "") return name.startsWith("(") ? name : "(native)";
  const path = url.startsWith("file://") ? fileURLToPath(url) : url;
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return `dependency ${pkg[1]}`;
  return path.startsWith("node:") ? path : relative(ROOT, path);
}

function top(totals: Map<string, number>, totalMs: number, n: number): ProfileRow[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([where, ms]) => ({ where, ms: Number(ms.toFixed(1)), share: Number((ms / totalMs).toFixed(3)) }));
}

/** Runs `fn` under V8's sampling CPU profiler and sums self time by file and by function. */
export async function profileCpu(fn: () => Promise<void>, rows = 12): Promise<CpuProfile> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 250 });
  await session.post("Profiler.start");
  let stopped: Awaited<ReturnType<typeof stop>> | undefined;
  const stop = () => session.post("Profiler.stop");
  try {
    await fn();
  } finally {
    stopped = await stop();
    session.disconnect();
  }
  const { profile } = stopped;
  const nodes = new Map((profile.nodes as Node[]).map((n) => [n.id, n]));
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let totalMs = 0;
  for (const [i, id] of (profile.samples ?? []).entries()) {
    const node = nodes.get(id);
    const ms = (profile.timeDeltas?.[i] ?? 0) / 1000;
    if (!node || node.callFrame.functionName === "(idle)") continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = fileOf(url, functionName);
    totalMs += ms;
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
    const fnKey = `${functionName || "(anonymous)"} ${file}${url ? `:${lineNumber + 1}` : ""}`;
    byFunction.set(fnKey, (byFunction.get(fnKey) ?? 0) + ms);
  }
  return {
    totalMs: Number(totalMs.toFixed(1)),
    byFile: top(byFile, totalMs, rows),
    byFunction: top(byFunction, totalMs, rows),
  };
}
