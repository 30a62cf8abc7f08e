import type { StoragePort } from "@engram/core";
import { afterAll, afterEach, beforeEach, describe, it } from "vitest";
import { BACKENDS, type ConformanceBackend } from "./backends.js";

export type ConformanceTest = (name: string, fn: (port: StoragePort) => Promise<void>) => void;

export interface ConformanceSuite {
  /** Declares a test that gets a fresh, empty store of the backend under test. */
  readonly test: ConformanceTest;
  readonly backend: ConformanceBackend;
}

/**
 * Declares one operation's conformance tests once per backend, as `<backend> › <operation>`. Each test
 * runs on its own empty store; a test the backend lists in `skips` is reported as skipped with its reason.
 */
export function describeConformance(operation: string, define: (suite: ConformanceSuite) => void): void {
  for (const backend of BACKENDS) {
    describe(`${backend.name} › ${operation}`, () => {
      let port: StoragePort | null = null;
      beforeEach(async () => {
        port = await backend.create();
      });
      afterEach(async () => {
        if (port) await backend.destroy(port);
        port = null;
      });
      afterAll(async () => {
        await backend.teardown?.();
      });
      const test: ConformanceTest = (name, fn) => {
        const reason = backend.skips?.[`${operation} › ${name}`];
        if (reason) {
          it.skip(`${name} (skipped on ${backend.name}: ${reason})`, () => {});
          return;
        }
        it(name, async () => {
          if (!port) throw new Error(`no ${backend.name} store was created for this test`);
          await fn(port);
        });
      };
      define({ test, backend });
    });
  }
}
