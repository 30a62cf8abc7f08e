/**
 * The page as one response (index.html with app.css and the modules inlined): a first load is this document
 * and the view's API call, not nine requests. Joining drops local imports and exports, which is sound only
 * while the modules' top-level names are distinct, so that is checked.
 */

/** The page's modules, each after those it imports. */
export const PAGE_MODULES = ["dom.js", "api.js", "views.js", "user-view.js", "memory-view.js", "app.js"];

const LOCAL_IMPORT = /^import \{[^}]*\} from "\.\/[a-z-]+\.js";\n/gm;
const TOP_LEVEL_NAME = /^(?:export )?(?:async )?(?:function\*? |const |let |class )([A-Za-z_$][\w$]*)/gm;

/** The page's files cannot be joined as they are: a change to them broke a rule above. */
export class PageBuildError extends Error {
  override readonly name = "PageBuildError";
}

/** The modules as one module: local imports removed, `export` dropped, one scope for all names. */
export function joinModules(read: (file: string) => string): string {
  const owner = new Map<string, string>();
  const parts = PAGE_MODULES.map((file) => {
    const source = read(file).replace(LOCAL_IMPORT, "");
    if (/^(import\b|export\s+(default\b|\{|\*))/m.test(source)) {
      throw new PageBuildError(
        `ui/${file}: only named imports of the page's own modules and exported declarations can be joined`,
      );
    }
    for (const [, name] of source.matchAll(TOP_LEVEL_NAME)) {
      const other = owner.get(name as string);
      if (other) throw new PageBuildError(`ui/${file} and ui/${other} both declare ${name} at the top level`);
      owner.set(name as string, file);
    }
    return `// ui/${file}\n${source.replace(/^export /gm, "")}`;
  });
  return parts.join("\n");
}

/** index.html with its stylesheet link and module script replaced by their content. */
export function inlinePage(read: (file: string) => string): string {
  const html = read("index.html");
  const css = read("app.css");
  const js = joinModules(read);
  if (/<\/style/i.test(css) || /<\/script/i.test(js)) {
    throw new PageBuildError("ui/: app.css or a module contains a closing tag and cannot be inlined");
  }
  const link = '<link rel="stylesheet" href="/app.css" />';
  const script = '<script type="module" src="/app.js"></script>';
  if (!html.includes(link) || !html.includes(script)) {
    throw new PageBuildError(`ui/index.html must contain ${link} and ${script}`);
  }
  // Functions as replacements: `$` in the sources is not a replacement pattern.
  return html
    .replace(link, () => `<style>\n${css}</style>`)
    .replace(script, () => `<script type="module">\n${js}</script>`);
}
