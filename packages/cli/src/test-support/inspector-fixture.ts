import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createEngram, type Engram } from "@engram/core";
import type { Page } from "playwright-core";
import { startUiServer, type UiServerHandle } from "../ui/ui-server.js";

/** docs/inspector/ of the repository, where ENGRAM_SCREENSHOTS=1 writes the views' screenshots. */
const SHOTS = fileURLToPath(new URL("../../../../docs/inspector/", import.meta.url));

export interface Inspector {
  readonly engram: Engram;
  readonly server: UiServerHandle;
  readonly dir: string;
  /** Calls the API as the page does (token, same origin). */
  api(method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

/** Serves the store in `dir/engram.db` (made by `fill`) the way `engram ui` does. */
export async function startInspector(fill: (file: string) => Promise<void>): Promise<Inspector> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-ui-browser-"));
  const file = path.join(dir, "engram.db");
  await fill(file);
  const engram = await createEngram({ path: file });
  const server = await startUiServer({ engram });
  return {
    engram,
    server,
    dir,
    async api(method, urlPath, body) {
      const res = await fetch(new URL(urlPath, server.origin), {
        method,
        headers: {
          authorization: `Bearer ${server.token}`,
          origin: server.origin,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: await res.json() };
    },
    async close() {
      await server.close();
      await engram.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the page has rendered `view` (app.js marks main with data-ready when a view is drawn). */
export async function viewReady(page: Page, view: string): Promise<void> {
  await page.waitForSelector(`main[data-ready] section[data-view="${view}"]`);
}

/** A screenshot of the whole page into docs/inspector/NAME.png, only when ENGRAM_SCREENSHOTS=1. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.ENGRAM_SCREENSHOTS !== "1") return;
  fs.mkdirSync(SHOTS, { recursive: true });
  // Lists off screen are drawn when scrolled to (content-visibility); a full-page picture shows them all.
  await page.evaluate(() => {
    for (const list of document.querySelectorAll<HTMLElement>(".list"))
      list.style.contentVisibility = "visible";
  });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}
