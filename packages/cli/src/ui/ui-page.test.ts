import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { inlinePage, joinModules, PAGE_MODULES, PageBuildError } from "./ui-page.js";

const UI = new URL("../../ui/", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, UI), "utf8");

describe("the page as one response", () => {
  it("joins the page's modules into one, keeping every top-level name once", async () => {
    const joined = joinModules(read);
    expect(joined).not.toMatch(/^(import|export)\s/m);
    for (const file of PAGE_MODULES) expect(joined).toContain(`// ui/${file}\n`);
    // Parses as a module (no name declared twice): compile it without running it.
    expect(() => new Function(joined.replace(/\bawait\b/g, ""))).not.toThrow();
    const page = inlinePage(read);
    expect(page).toContain("<style>\n:root");
    expect(page).not.toContain('href="/app.css"');
  });

  it("refuses sources that joining would break", () => {
    const withFile = (file: string, text: string) => (f: string) => (f === file ? text : read(f));
    expect(() => joinModules(withFile("views.js", `${read("views.js")}\nfunction h() {}\n`))).toThrow(
      PageBuildError,
    );
    for (const line of [
      'import { x } from "https://cdn.example/x.js";',
      "export default 1;",
      "export { h };",
    ]) {
      expect(() => joinModules(withFile("views.js", `${line}\n`))).toThrow(/can be joined/);
    }
    expect(() => inlinePage(withFile("app.js", 'const s = "</script>";'))).toThrow(/closing tag/);
  });
});
