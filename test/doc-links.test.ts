// Every relative link of the README, docs/ and the packages' READMEs leads somewhere: the file exists and,
// for a link to a heading (page.md#heading), the heading does, by GitHub's rule for heading anchors.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

function pages(): string[] {
  const docs = readdirSync(join(ROOT, "docs"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => join(ROOT, "docs", f));
  const readmes = readdirSync(join(ROOT, "packages"))
    .map((p) => join(ROOT, "packages", p, "README.md"))
    .filter((f) => existsSync(f));
  return [join(ROOT, "README.md"), ...docs, ...readmes];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  for (const [, heading] of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = (heading as string)
      .toLowerCase()
      .replace(/<[^>]+>/g, "")
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

function links(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] as string);
}

describe("the documentation's links", () => {
  const all = pages();

  it("are read from the README, docs/ and the packages' READMEs", () => {
    expect(all.length).toBeGreaterThan(20);
  });

  it("lead to files and headings that exist", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of all) {
      const text = readFileSync(page, "utf8");
      for (const link of links(text)) {
        if (/^[a-z][a-z+.-]*:/i.test(link)) continue; // https:, mailto: and the like
        checked++;
        const [path = "", anchor] = link.split("#");
        const target = path === "" ? page : resolve(dirname(page), decodeURIComponent(path));
        const where = `${relative(ROOT, page)}: ${link}`;
        if (!existsSync(target)) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (anchor && statSync(target).isFile() && target.endsWith(".md")) {
          if (!anchors(readFileSync(target, "utf8")).has(anchor)) broken.push(`${where} (no such heading)`);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });
});
