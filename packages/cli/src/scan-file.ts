import { closeSync, openSync, readSync } from "node:fs";

const CHUNK_BYTES = 8 << 20;

/** How many times `needle` occurs in a file, read in chunks (a store can be larger than memory allows). */
export function countInFile(path: string, needle: Buffer): number {
  const fd = openSync(path, "r");
  const overlap = needle.length - 1;
  const buffer = Buffer.alloc(CHUNK_BYTES + overlap);
  let carried = 0;
  let count = 0;
  try {
    for (;;) {
      const read = readSync(fd, buffer, carried, CHUNK_BYTES, null);
      const end = carried + read;
      for (
        let i = buffer.indexOf(needle);
        i >= 0 && i + needle.length <= end;
        i = buffer.indexOf(needle, i + 1)
      ) {
        count++;
      }
      if (read === 0) return count;
      // Keep the tail, so a match across two chunks is found (and one inside the tail is not counted twice).
      carried = Math.min(overlap, end);
      buffer.copy(buffer, 0, end - carried, end);
      buffer.fill(0, carried);
    }
  } finally {
    closeSync(fd);
  }
}
