import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  IS_ROOT,
  NOBODY,
  type ReaderLauncher,
  readerLauncher,
  spawnLaunched,
} from "./support/reader-launcher.js";
import { makeTempDir } from "./support/temp-dir.js";

// The read-only-file test runs its reader through this launcher. Run as root from a checkout in a 0700
// folder (a container's /root), a reader started as `nobody` could not even load its script: the launcher
// must hand out only a way of running that reaches the script and that permission bits still bind.

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanups.splice(0)) fn();
});

/** A folder of `mode` (as a checkout would be) holding a readable script and a 0444 file. */
function folder(mode: number): { script: string; locked: string } {
  const dir = makeTempDir("engram-launcher-");
  cleanups.push(dir.remove);
  const script = join(dir.path, "reader.js");
  writeFileSync(script, "// the reader\n");
  chmodSync(script, 0o644);
  const locked = join(dir.path, "locked.db");
  writeFileSync(locked, "store\n");
  chmodSync(locked, 0o444);
  chmodSync(dir.path, mode);
  return { script, locked };
}

/** Runs `code` in Node.js as `launcher` says; the exit status and what it printed on stderr. */
function run(launcher: ReaderLauncher, code: string) {
  const child = spawnLaunched(launcher, process.execPath, ["-e", code]);
  return { status: child.status, stderr: child.stderr };
}

/** The launcher's promise: what it starts reads the script and cannot write a file of mode 0444. */
function expectBoundReader(launcher: ReaderLauncher, script: string, locked: string): void {
  if ("skip" in launcher) return;
  expect(run(launcher, `require("fs").readFileSync(${JSON.stringify(script)})`)).toEqual({
    status: 0,
    stderr: "",
  });
  const write = run(launcher, `require("fs").writeFileSync(${JSON.stringify(locked)}, "x")`);
  expect(write.status).not.toBe(0);
  expect(write.stderr).toMatch(/EACCES/);
}

describe("the read-only reader's launcher", () => {
  it.each([
    ["0700", 0o700],
    ["0755", 0o755],
  ] as const)(
    "from a checkout in a %s folder: reaches the script, bound by permission bits",
    (_label, mode) => {
      const { script, locked } = folder(mode);
      const launcher = readerLauncher(script);
      if ("skip" in launcher) expect(launcher.skip).toMatch(/cannot reach this checkout/);
      expectBoundReader(launcher, script, locked);
    },
  );

  it.runIf(IS_ROOT)(
    "as root without setpriv: nobody where nobody reaches the script, else a skip that says why",
    () => {
      const noSetpriv = { setpriv: "engram-test-no-such-setpriv" };
      // nobody cannot enter root's 0700 folder: there is no reader to run, and the answer says why.
      const hidden = folder(0o700);
      expect(readerLauncher(hidden.script, noSetpriv)).toEqual({
        skip:
          "running as root without setpriv, and the user nobody cannot reach this checkout or its Node.js: " +
          "no process here is bound by permission bits",
      });
      const open = folder(0o755);
      const launcher = readerLauncher(open.script, noSetpriv);
      // nobody can run this Node.js unless it too lies in a folder closed to others.
      const nodeReachable = run({ argv: [], uid: NOBODY }, "").status === 0;
      if (nodeReachable) expect(launcher).toEqual({ argv: [], uid: NOBODY });
      else expect(launcher).toHaveProperty("skip");
      expectBoundReader(launcher, open.script, open.locked);
    },
  );
});
