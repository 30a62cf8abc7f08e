import { ValidationError } from "@engram/core";
import type { StoragePort } from "@engram/core/storage";
import { afterAll, afterEach, beforeEach, describe, it } from "vitest";
import type { ConformanceTest } from "./spec.js";
import { SPECS } from "./specs/index.js";

/** The operations the suite tests, as named in its test titles, in `operations` and in `skips`. */
export const CONFORMANCE_OPERATIONS: readonly string[] = SPECS.map((spec) => spec.operation);

/** How the suite gets the backend under test. */
export interface StorageConformanceOptions {
  /** The backend's name, in each test's title (`<name> › <operation> › <test>`). */
  readonly name: string;
  /** An empty store, isolated from every other one `create` returned (a test sees only its own writes). */
  create(): Promise<StoragePort>;
  /** Closes the store and removes what it left behind (files, collections); default `port.close()`. */
  destroy?(port: StoragePort): Promise<void>;
  /** Releases what the stores share (a server, a temp folder), after each operation's last test. */
  teardown?(): Promise<void>;
  /**
   * Tests this backend cannot pass, as `"<operation> › <test name>"`, each with the reason: they are
   * reported as skipped with it.
   */
  readonly skips?: Readonly<Record<string, string>>;
  /** Run only these operations' tests (default all of `CONFORMANCE_OPERATIONS`). */
  readonly operations?: readonly string[];
}

/**
 * Declares the storage port's conformance suite for one backend, in a Vitest test file: every operation's
 * tests, each on a fresh store. A backend that passes it can serve `createEngram({ storage })`. The same
 * suite runs on the SQLite, Qdrant and in-memory backends.
 */
export function describeStorageConformance(options: StorageConformanceOptions): void {
  const known = new Set(CONFORMANCE_OPERATIONS);
  const unknown = (options.operations ?? []).filter((op) => !known.has(op));
  if (unknown.length) {
    throw new ValidationError(
      `describeStorageConformance: unknown operations ${unknown.map((op) => JSON.stringify(op)).join(", ")}; the suite has ${CONFORMANCE_OPERATIONS.map((op) => JSON.stringify(op)).join(", ")}`,
    );
  }
  const wanted = options.operations ? new Set(options.operations) : known;
  for (const spec of SPECS) {
    if (!wanted.has(spec.operation)) continue;
    describe(`${options.name} › ${spec.operation}`, () => {
      let port: StoragePort | null = null;
      beforeEach(async () => {
        port = await options.create();
      });
      afterEach(async () => {
        if (port) await (options.destroy ? options.destroy(port) : port.close());
        port = null;
      });
      afterAll(async () => {
        await options.teardown?.();
      });
      const test: ConformanceTest = (name, fn) => {
        const reason = options.skips?.[`${spec.operation} › ${name}`];
        if (reason) {
          it.skip(`${name} (skipped on ${options.name}: ${reason})`, () => {});
          return;
        }
        it(name, async () => {
          if (!port) throw new Error(`no ${options.name} store was created for this test`);
          await fn(port);
        });
      };
      spec.define({ test });
    });
  }
}
