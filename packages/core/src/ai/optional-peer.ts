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
    if ((cause as { code?: string }).code !== "ERR_MODULE_NOT_FOUND") throw cause;
    throw new UnsupportedError(
      `${neededBy} needs the ${name} package, which is not installed: add it (npm install ${name})`,
      { cause },
    );
  }
}
