import { cpus, loadavg, totalmem } from "node:os";

export interface Latency {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly mean: number;
  readonly max: number;
  /** Mean CPU time of this process per call: unlike wall time, not inflated by other processes. */
  readonly cpuMean?: number;
}

/** Nearest-rank percentile of already sorted samples. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

const round = (x: number, digits = 3): number => Number(x.toFixed(digits));

/** p50/p95/mean/max of latency samples in milliseconds. */
export function summarize(samples: readonly number[], cpuMs?: number): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length);
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    mean: round(mean),
    max: round(sorted[sorted.length - 1] ?? Number.NaN),
    ...(cpuMs === undefined ? {} : { cpuMean: round(cpuMs / Math.max(1, sorted.length)) }),
  };
}

/** CPU time (user + system, all threads) this process used since `since`, in ms. */
export const cpuMsSince = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** Stop a measurement after this long once it has at least `MIN_SAMPLES`, so slow scopes cannot stall a run. */
export interface Budget {
  readonly maxSeconds?: number;
}
const MIN_SAMPLES = 30;

type Timed<T> = (item: T, i: number) => Promise<unknown>;

/**
 * Runs every function once per item, interleaved (item 1: a, b; item 2: a, b; ...), so all figures see
 * the same items under the same conditions; summarises each function's wall and CPU times.
 */
export async function latencies<T, K extends string>(
  items: readonly T[],
  fns: Record<K, Timed<T>>,
  budget: Budget = {},
): Promise<Record<K, Latency>> {
  const names = Object.keys(fns) as K[];
  const samples = names.map(() => [] as number[]);
  const cpu = names.map(() => 0);
  const deadline = performance.now() + (budget.maxSeconds ?? Number.POSITIVE_INFINITY) * 1000;
  for (const [i, item] of items.entries()) {
    for (const [j, name] of names.entries()) {
      const used = process.cpuUsage();
      const start = performance.now();
      await fns[name](item, i);
      samples[j]?.push(performance.now() - start);
      cpu[j] = (cpu[j] as number) + cpuMsSince(used);
    }
    if (i + 1 >= MIN_SAMPLES && performance.now() > deadline) break;
  }
  return Object.fromEntries(names.map((name, j) => [name, summarize(samples[j] ?? [], cpu[j])])) as Record<
    K,
    Latency
  >;
}

/** Runs `fn` once per item, sequentially, and summarises the calls' wall and CPU times. */
export async function latency<T>(items: readonly T[], fn: Timed<T>, budget: Budget = {}): Promise<Latency> {
  return (await latencies(items, { fn }, budget)).fn;
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const value = await fn();
  return { value, ms: round(performance.now() - start, 1), cpuMs: round(cpuMsSince(cpu), 1) };
}

/** Standard normal samples (Box-Muller) from a uniform source. */
export function gaussian(random: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

export const mib = (bytes: number): number => round(bytes / 1024 / 1024, 1);

export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
  readonly date: string;
  /** 1, 5 and 15 minute load averages; above the core count means other work competed for the CPUs. */
  readonly loadAverageAtStart: number[];
  loadAverageAtEnd?: number[];
}

export function machineInfo(): MachineInfo {
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() ?? "unknown",
    cores: cores.length,
    memoryGiB: round(totalmem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString(),
    loadAverageAtStart: loadavg().map((x) => round(x, 2)),
  };
}

/** The seeded generator every corpus is built with (mulberry32). */
export { seededRandom } from "@engram/core/testing";
