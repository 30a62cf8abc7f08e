import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const TEST_DIR = fileURLToPath(new URL("..", import.meta.url));
/** The `engram` command, run from source (what `pnpm engram` runs). */
export const CLI = join(TEST_DIR, "..", "packages", "cli", "src", "bin.ts");

export interface NodeProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly output: { stdout: string; stderr: string };
  /** Resolves with the exit code once the process is gone and its output read. */
  readonly exited: Promise<number | null>;
  /** Resolves once `text` has appeared on the stream; rejects if the process exits first. */
  waitFor(text: string, stream?: "stdout" | "stderr"): Promise<void>;
}

/** Runs a TypeScript file from source in a new Node process, with extra `--import` preloads. */
export function spawnNode(
  script: string,
  args: readonly string[],
  options: { preload?: readonly string[]; env?: Record<string, string> } = {},
): NodeProcess {
  const preload = (options.preload ?? []).flatMap((file) => ["--import", file]);
  const child = spawn(
    process.execPath,
    ["--conditions=@engram/source", "--import", "tsx", ...preload, script, ...args],
    { cwd: TEST_DIR, env: { ...process.env, ...options.env } },
  );
  const output = { stdout: "", stderr: "" };
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output.stdout += chunk;
    notify();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output.stderr += chunk;
    notify();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("close", (code) => {
      resolve(code);
      notify();
    }),
  );
  const waitFor = (text: string, stream: "stdout" | "stderr" = "stdout") =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (output[stream].includes(text)) {
          listeners.delete(check);
          resolve();
        } else if (child.exitCode !== null || child.signalCode !== null) {
          listeners.delete(check);
          reject(new Error(`process exited before printing ${JSON.stringify(text)}: ${output.stderr}`));
        }
      };
      listeners.add(check);
      check();
    });
  return { child, output, exited, waitFor };
}
