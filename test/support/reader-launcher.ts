import {
  type SpawnSyncOptionsWithStringEncoding,
  type SpawnSyncReturns,
  spawnSync,
} from "node:child_process";

export const IS_ROOT = process.getuid?.() === 0;
export const NOBODY = 65534;

/** Root without the two capabilities that let it ignore permission bits (setpriv, from util-linux). */
function setprivArgv(command: string): string[] {
  return [
    command,
    "--bounding-set=-dac_override,-dac_read_search",
    "--inh-caps=-dac_override,-dac_read_search",
    "--",
  ];
}

/** How to start a process that permission bits bind: a command to put in front, and a user to run as. */
export type ReaderLauncher = { argv: string[]; uid?: number } | { skip: string };

/**
 * How to run a process that permission bits bind and that can read `reach` (its script, in this checkout).
 * Root ignores the bits, so as root it runs without the capabilities that let it (setpriv), else as
 * `nobody` if `nobody` can reach `reach` and this Node.js (not in a 0700 home, as a container's /root
 * is); else there is no such process here, and the answer says why. Anyone else runs as themselves.
 */
export function readerLauncher(reach: string, options: { setpriv?: string } = {}): ReaderLauncher {
  const node = [process.execPath, "-e", `require("fs").accessSync(${JSON.stringify(reach)})`];
  if (!IS_ROOT) return { argv: [] };
  const setpriv = setprivArgv(options.setpriv ?? "setpriv");
  const [command, ...args] = [...setpriv, ...node] as [string, ...string[]];
  if (spawnSync(command, args).status === 0) return { argv: setpriv };
  const [nodePath, ...nodeArgs] = node as [string, ...string[]];
  if (spawnSync(nodePath, nodeArgs, { uid: NOBODY, gid: NOBODY }).status === 0) {
    return { argv: [], uid: NOBODY };
  }
  return {
    skip:
      "running as root without setpriv, and the user nobody cannot reach this checkout or its Node.js: " +
      "no process here is bound by permission bits",
  };
}

/** Runs `command args` as `launcher` says; throws if the launcher found no way. */
export function spawnLaunched(
  launcher: ReaderLauncher,
  command: string,
  args: readonly string[],
  options: Omit<SpawnSyncOptionsWithStringEncoding, "encoding"> = {},
): SpawnSyncReturns<string> {
  if ("skip" in launcher) throw new Error(launcher.skip);
  const [first, ...rest] = [...launcher.argv, command, ...args] as [string, ...string[]];
  return spawnSync(first, rest, {
    ...options,
    encoding: "utf8",
    ...(launcher.uid === undefined ? {} : { uid: launcher.uid, gid: launcher.uid }),
  });
}
