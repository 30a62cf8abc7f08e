import type { Browser, Page } from "playwright-core";
import { spawnCli } from "./spawn-cli.js";

export interface UiProcess {
  /** The printed URL, with the session token. */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * `engram ui` on the store `db` in a process of its own, as a user starts it: a page load measured against
 * it does not wait for the test runner's own work (the browser's protocol traffic, other tests' stores),
 * which shares the event loop with a server started in the test process.
 */
export async function startUiProcess(db: string): Promise<UiProcess> {
  const ui = spawnCli(["ui", "--db", db]);
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    ui.child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /Engram inspector: (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    ui.child.once("exit", () => reject(new Error("engram ui exited before printing its URL")));
  });
  return {
    url,
    async stop() {
      ui.child.kill("SIGTERM");
      await ui.done;
    },
  };
}

/** Resolves in the page once the view is drawn: a few lines, evaluated once, nothing injected before. */
const READY = (view: string) => `new Promise((resolve) => {
  const main = document.getElementById("main");
  const ready = () => main.hasAttribute("data-ready") && main.querySelector('section[data-view="${view}"]');
  if (ready()) return resolve(main.dataset.ready);
  new MutationObserver((_, observer) => {
    if (!ready()) return;
    observer.disconnect();
    resolve(main.dataset.ready);
  }).observe(main, { attributes: true });
})`;

/**
 * Opens `url` in a fresh tab and returns the tab and its `data-ready` mark (ms since navigation started).
 * The wait is one DevTools call made once the document has loaded, not Playwright's selector engine: that
 * engine is a large script compiled on the page's main thread, and injected while the page was waiting
 * for its API answer it took about 50 ms of that thread (Chromium's performance trace) in the very time
 * measured.
 */
export async function measureFirstLoad(
  browser: Browser,
  url: string,
  view: string,
): Promise<{ page: Page; ready: number }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  await page.goto(url);
  const { result } = await cdp.send("Runtime.evaluate", { expression: READY(view), awaitPromise: true });
  await cdp.detach();
  return { page, ready: Number(result.value) };
}
