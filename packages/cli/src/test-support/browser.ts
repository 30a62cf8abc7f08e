import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";

/** Debian's chromium package; ENGRAM_CHROMIUM names another binary. */
export const CHROMIUM = process.env.ENGRAM_CHROMIUM || "/usr/bin/chromium";

/**
 * Whether the browser tests run: with a Chromium binary, yes; without one they are skipped with a line
 * saying how to run them, unless ENGRAM_REQUIRE_BROWSER=1 (CI), where a missing browser is a failure.
 */
export function browserAvailability(): { run: boolean; required: boolean; reason: string } {
  const required = process.env.ENGRAM_REQUIRE_BROWSER === "1";
  if (existsSync(CHROMIUM)) return { run: true, required, reason: "" };
  const reason = `no Chromium at ${CHROMIUM}: install it (apt-get install chromium) or set ENGRAM_CHROMIUM`;
  return { run: required, required, reason };
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Containers often run as root without a user namespace for the sandbox.
    args: process.getuid?.() === 0 ? ["--no-sandbox"] : [],
  });
}
