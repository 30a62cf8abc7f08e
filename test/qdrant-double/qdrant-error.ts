/**
 * A failure answered the way Qdrant answers it: JSON `{status:{error}, time}` with the server's message
 * prefixes (`Wrong input: …`, `Not found: …`), or a plain-text body for the auth layer.
 */
export class QdrantError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly plainText = false,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "QdrantError";
  }
}

export const badInput = (message: string): QdrantError => new QdrantError(400, `Wrong input: ${message}`);
export const badRequest = (message: string): QdrantError => new QdrantError(400, `Bad request: ${message}`);
export const conflict = (message: string): QdrantError => new QdrantError(409, `Wrong input: ${message}`);
export const notFound = (message: string): QdrantError => new QdrantError(404, `Not found: ${message}`);

export const collectionNotFound = (name: string): QdrantError =>
  notFound(`Collection \`${name}\` doesn't exist!`);

export const pointNotFound = (id: number | string): QdrantError => notFound(`No point with id ${id} found`);

export const vectorNameNotFound = (name: string): QdrantError =>
  badInput(`Not existing vector name error: ${name}`);
