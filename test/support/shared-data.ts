import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The LoCoMo development split, which lives beside a checkout rather than in it (its licence is
 * non-commercial). Tests that need it skip with a message when it is absent, so a clone anywhere passes;
 * with ENGRAM_REQUIRE_LOCOMO=1 (set by CI, which has the file) its absence fails instead.
 */
export const LOCOMO_DEV = fileURLToPath(
  new URL("../../../shared/data/locomo/locomo-dev.json", import.meta.url),
);

export function locomoDevAvailable(): boolean {
  if (existsSync(LOCOMO_DEV)) return true;
  if (process.env.ENGRAM_REQUIRE_LOCOMO === "1") {
    throw new Error(`ENGRAM_REQUIRE_LOCOMO=1 but the LoCoMo dev split is missing: ${LOCOMO_DEV}`);
  }
  console.warn(`skipping: the LoCoMo dev split is not at ${LOCOMO_DEV} (it sits beside the repository)`);
  return false;
}
