import { join } from "node:path";
import { SqliteStorage, type StoragePort } from "@engram/core";
import { makeTempDir } from "../support/temp-dir.js";

/**
 * How the conformance suite gets a backend: `create` returns an empty store, `destroy` closes it and
 * removes what it left behind. `skips` names tests (`"<operation> › <test name>"`) this backend cannot
 * pass, each with the reason.
 */
export interface ConformanceBackend {
  readonly name: string;
  create(): Promise<StoragePort>;
  destroy(port: StoragePort): Promise<void>;
  readonly skips?: Readonly<Record<string, string>>;
}

/**
 * SQLite in memory by default: opening a file (WAL, migrations, fsync) costs ~70 ms a test, and file
 * behaviour is covered by the forget-bytes and crash tests. ENGRAM_CONFORMANCE_SQLITE_FILE=1 runs the
 * suite on a temp file per test instead.
 */
function sqliteBackend(onFile: boolean): ConformanceBackend {
  const cleanups = new Map<StoragePort, () => void>();
  return {
    name: "sqlite",
    async create() {
      if (!onFile) return new SqliteStorage({ path: ":memory:" });
      const dir = makeTempDir("engram-conformance-");
      const port = new SqliteStorage({ path: join(dir.path, "engram.db") });
      cleanups.set(port, dir.remove);
      return port;
    },
    async destroy(port) {
      await port.close();
      cleanups.get(port)?.();
      cleanups.delete(port);
    },
  };
}

/** Every backend the suite runs against. Add one here and every spec file runs it. */
export const BACKENDS: readonly ConformanceBackend[] = [
  sqliteBackend(process.env.ENGRAM_CONFORMANCE_SQLITE_FILE === "1"),
];
