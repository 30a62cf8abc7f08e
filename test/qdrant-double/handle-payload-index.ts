import type { Handler } from "./double-state.js";
import { updateResult } from "./double-state.js";
import { requireCollection } from "./handle-collections.js";
import { QdrantError } from "./qdrant-error.js";

type FieldSchema = string | ({ type: string } & Record<string, unknown>);

/**
 * `PUT /collections/{c}/index`. The spec checks the schema's shape; this adds the one cross-field rule
 * the server's validator enforces. Re-creating an index overwrites its schema entry, as on the server.
 */
const createFieldIndex: Handler = (context) => {
  const collection = requireCollection(context);
  const body = context.body as { field_name: string; field_schema?: FieldSchema | null };
  const schema = body.field_schema;
  if (schema == null) {
    throw new QdrantError(
      400,
      "Bad request: Can't auto-detect field type, please specify `field_schema` in the request",
    );
  }
  if (typeof schema === "string") {
    collection.payloadIndexes.set(body.field_name, { dataType: schema });
  } else {
    if (schema.type === "integer" && schema.lookup === false && schema.range === false) {
      throw new QdrantError(
        422,
        "Validation error in JSON body: [field_schema: Validation error: the 'lookup' and 'range' capabilities can't be both disabled [{}]]",
      );
    }
    collection.payloadIndexes.set(body.field_name, { dataType: schema.type, params: schema });
  }
  return updateResult(context);
};

const deleteFieldIndex: Handler = (context) => {
  const collection = requireCollection(context);
  collection.payloadIndexes.delete(context.params.field_name ?? "");
  return updateResult(context);
};

export const PAYLOAD_INDEX_HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ["create_field_index", createFieldIndex],
  ["delete_field_index", deleteFieldIndex],
]);
