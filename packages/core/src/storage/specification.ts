import { UnsupportedError } from "../errors/index.js";
import type { StoragePort } from "./storage-port.js";

/**
 * The version of the storage port this engine reads and writes through. It changes when the port's
 * contract changes in a way an existing backend would get wrong, so an engine never runs on a backend
 * written against another contract.
 */
export const STORAGE_SPECIFICATION_VERSION = 1;

/** Refuses a backend written against another version of the port, naming both versions. */
export function assertStorageSpecification(storage: StoragePort, operation: string): void {
  const version = (storage as { specificationVersion?: unknown }).specificationVersion;
  if (version === STORAGE_SPECIFICATION_VERSION) return;
  const backend = typeof storage.backend === "string" ? `"${storage.backend}"` : "the given";
  throw new UnsupportedError(
    `${operation}: the ${backend} storage implements storage specification ${version === undefined ? "(none declared)" : JSON.stringify(version)}, and this Engram needs specification ${STORAGE_SPECIFICATION_VERSION}; set specificationVersion: ${STORAGE_SPECIFICATION_VERSION} once the backend passes describeStorageConformance from @engram/storage-conformance`,
  );
}
