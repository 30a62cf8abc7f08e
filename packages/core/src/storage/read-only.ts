import { ReadOnlyError } from "../errors/index.js";
import type { StoragePort } from "./storage-port.js";

/** Refuses a write to a read-only store before any work (embedding, reads) is spent on it. */
export function assertWritable(storage: StoragePort, operation: string): void {
  const reason = storage.readOnly;
  if (reason) {
    throw new ReadOnlyError(
      `${operation}: the store is open read-only (${reason}); reads work, writes need a store opened for writing`,
    );
  }
}
