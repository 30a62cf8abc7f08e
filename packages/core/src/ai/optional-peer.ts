import { UnsupportedError } from "../errors/index.js";

/**
 * Loads an optional peer dependency (`load` is the literal `import()`, so bundlers and types see it); a
 * missing package is an UnsupportedError naming it and the feature that needs it.
 */
export async function importOptionalPeer<T>(
  load: () => Promise<T>,
  name: string,
  neededBy: string,
): Promise<T> {
  try {
    return await load();
  } catch (cause) {
    // Only the package itself missing: one of its own dependencies missing is its failure, passed on.
    const { code, message } = cause as { code?: string; message?: string };
    if (code !== "ERR_MODULE_NOT_FOUND" || !message?.includes(`'${name}'`)) throw cause;
    throw new UnsupportedError(
      `${neededBy} needs the ${name} package, which is not installed: add it (npm install ${name})`,
      { cause },
    );
  }
}
