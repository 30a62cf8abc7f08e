import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "bin.ts");

export interface CliProcess {
  readonly child: ChildProcess;
  /** Resolves when the process has exited, with everything it printed. */
  readonly done: Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>;
}

/** Runs the `engram` binary from source in a child process (as a user's shell would). */
export function spawnCli(args: readonly string[], env: Record<string, string> = {}): CliProcess {
  const child = spawn(process.execPath, ["--conditions=@engram/source", "--import", "tsx", BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return collect(child);
}

function collect(child: ChildProcess): CliProcess {
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (c: string) => {
    stdout += c;
  });
  child.stderr?.setEncoding("utf8").on("data", (c: string) => {
    stderr += c;
  });
  const done = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>((resolve) => child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");

/**
 * Runs a script of the repository's root package.json as pnpm runs it (`sh -c`, the project's Node.js
 * first on the PATH), in a process group of its own: `process.kill(-pid, signal)` signals the whole
 * group, as a terminal does on Ctrl-C.
 */
export function spawnRootScript(name: string, args: readonly string[]): CliProcess {
  const scripts = (
    JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
  ).scripts;
  const script = scripts[name];
  if (script === undefined) throw new Error(`no script ${name} in the root package.json`);
  const child = spawn("sh", ["-c", `exec ${script} "$@"`, name, ...args], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return collect(child);
}

/** Polls until `path` exists (the child has opened the store), failing if the child exits first. */
export async function waitForFile(path: string, cli: CliProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (cli.child.exitCode !== null)
      throw new Error(`the CLI exited before ${path} appeared: ${(await cli.done).stderr}`);
    if (Date.now() > deadline) throw new Error(`${path} did not appear within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A JSONL file of `count` turns of one session, each about `chars` characters (short enough to be embedded): minutes of embedding. */
export function longIngestFile(path: string, count = 4000, chars = 400): string {
  const sentence = "We talked about gardens, rivers and the old bakery on the corner. ";
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      role: i % 2 ? "assistant" : "user",
      content: `Turn ${i}. ${sentence.repeat(Math.ceil(chars / sentence.length))}`,
    }),
  );
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}
