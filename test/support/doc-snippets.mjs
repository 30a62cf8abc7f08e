// The TypeScript blocks of the README, docs/ and the packages' READMEs, for the checks that compile them:
// test/doc-snippets.test.ts against the sources, test/consumer/run.mjs against the installed tarballs.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The Markdown files whose TypeScript blocks are complete programs. */
export function docFiles(root) {
  const docs = readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f));
  const packages = readdirSync(join(root, "packages"))
    .map((p) => join("packages", p, "README.md"))
    .filter((p) => existsSync(join(root, p)));
  return ["README.md", ...docs, ...packages];
}

/** Every ```ts block, with the file and the line its fence opens on. */
export function docSnippets(root) {
  const out = [];
  for (const doc of docFiles(root)) {
    const text = readFileSync(join(root, doc), "utf8");
    for (const m of text.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```/gm)) {
      out.push({ doc, line: text.slice(0, m.index).split("\n").length, code: m[1] });
    }
  }
  return out;
}

/** The packages a snippet imports (bare specifiers, by package name); relative imports are not listed. */
export function importedPackages(code) {
  const names = new Set();
  for (const m of code.matchAll(/from "([^".][^"]*)"/g)) {
    const parts = m[1].split("/");
    names.add(m[1].startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]);
  }
  return [...names].filter((name) => !name.startsWith("node:"));
}

/** A file name for a snippet: its document, its line and its place in the list. */
export function snippetFileName(snippet, index) {
  return `.doc-snippet-${snippet.doc.replace(/[^a-z0-9]+/gi, "-")}-${snippet.line}-${index}.mts`;
}
