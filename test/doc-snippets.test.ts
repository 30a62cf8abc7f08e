// Every TypeScript block of the README, docs/ and the packages' READMEs is a complete program: written
// beside the example project whose dependencies it imports and type-checked against the sources, so a
// snippet that misses an import, names an option that does not exist or passes the wrong type fails here.
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { type DocSnippet, docSnippets, snippetFileName } from "./support/doc-snippets.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The project whose node_modules hold what a snippet imports. */
function home(code: string): string {
  if (/from "(@engram\/langgraph|@langchain\/langgraph)/.test(code)) return "examples/langgraph-agent";
  if (/from "(@engram\/langchain|@langchain\/|langchain)/.test(code)) return "examples/langchain-memory";
  if (/from "(@engram\/ai-sdk|ai"|@ai-sdk\/)/.test(code)) return "examples/ai-sdk-middleware";
  if (/from "(@engram\/mcp|@modelcontextprotocol)/.test(code)) return "packages/mcp";
  if (/from "(@opentelemetry\/|@engram\/english)/.test(code)) return "packages/core";
  return "test";
}

const all = docSnippets(ROOT);
const written = new Map<string, DocSnippet>();
afterAll(() => {
  for (const file of written.keys()) rmSync(file, { force: true });
});

describe("the documentation's TypeScript blocks", () => {
  it("are found in the README, docs/ and the packages' READMEs", () => {
    expect(all.length).toBeGreaterThan(25);
  });

  it("are each a complete program that type-checks against the packages", () => {
    all.forEach((snippet, i) => {
      // In the project's own folder, as a file of that project would be (a relative import resolves so).
      const dir = join(ROOT, home(snippet.code));
      const file = join(dir, snippetFileName(snippet, i));
      // An empty export keeps a block without imports a module (top-level await), as it is in a project.
      writeFileSync(file, `${snippet.code}\nexport {};\n`);
      written.set(file, snippet);
    });
    const base = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, "tsconfig.tests.json"),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => {},
      },
    );
    const options: ts.CompilerOptions = {
      ...base?.options,
      noEmit: true,
      composite: false,
      declaration: false,
      declarationMap: false,
      sourceMap: false,
      // Snippets show calls for their effect or their value; an unused name is no error in a docs page.
      noUnusedLocals: false,
    };
    const program = ts.createProgram([...written.keys()], options);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && written.has(d.file.fileName))
      .map((d) => {
        const snippet = written.get(d.file?.fileName ?? "") as DocSnippet;
        const { line } = d.file?.getLineAndCharacterOfPosition(d.start ?? 0) ?? { line: 0 };
        const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
        return `${snippet.doc}:${snippet.line + 1 + line}: ${message}`;
      });
    expect(problems).toEqual([]);
  }, 120_000);
});
