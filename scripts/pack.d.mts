/** The packages published under @engram/, by folder name. */
export const PUBLISHED: readonly string[];
/** Builds (tsc -b) and packs every published package into `dest`; returns `{ "@engram/x": path }`. */
export function packPackages(dest: string): Record<string, string>;
