import { describeStorageConformance } from "@engram/storage-conformance";
import { BACKENDS } from "./backends.js";

/**
 * One operation's conformance tests on every backend, as `<backend> › <operation>`. One test file per
 * operation, so Vitest runs the operations in parallel.
 */
export function describeConformance(operation: string): void {
  for (const backend of BACKENDS) describeStorageConformance({ ...backend, operations: [operation] });
}
