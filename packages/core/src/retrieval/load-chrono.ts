import { createRequire } from "node:module";
import type * as Chrono from "chrono-node";

const require = createRequire(import.meta.url);
let loaded: typeof Chrono | null = null;

/** chrono-node, loaded on first use: it takes a fifth of a second to load, and most commands parse no dates. */
export function chrono(): typeof Chrono {
  loaded ??= require("chrono-node") as typeof Chrono;
  return loaded;
}
