/**
 * Turns Qdrant's OpenAPI 3.0 spec into JSON Schema that Ajv compiles without loosening it
 * (the recipe of the Qdrant notes, section 15).
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Where component schemas live once registered with Ajv: `<DEFINITIONS_ID>#/definitions/<Name>`. */
export const DEFINITIONS_ID = "qdrant-components";

const ANNOTATIONS = new Set(["nullable", "description", "default", "deprecated", "example"]);

/** Keywords the server checks after deserialising (Rust `validator` crate): a failure there is a 422. */
export const VALIDATOR_KEYWORDS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "uniqueItems",
] as const;

function isObject(value: Json): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `{nullable:true}` alone becomes `{type:"null"}`: dropping it would leave `{}`, which accepts anything
 * inside every `anyOf:[{$ref}, {nullable:true}]`. `{type:T, nullable:true}` becomes `type:[T,"null"]`.
 */
function rewriteNullable(node: JsonObject): void {
  if (node.nullable !== true) return;
  delete node.nullable;
  if (typeof node.type === "string") {
    node.type = [node.type, "null"];
    if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum.push(null);
    return;
  }
  if (Object.keys(node).every((key) => ANNOTATIONS.has(key))) {
    node.type = "null";
    return;
  }
  const rest = { ...node };
  for (const key of Object.keys(node)) delete node[key];
  node.anyOf = [rest, { type: "null" }];
}

export interface ConvertOptions {
  /** Add `additionalProperties:false` to object schemas with `properties` (stricter than the server). */
  readonly closedObjects: boolean;
  /**
   * Drop the constraint keywords the server checks only after deserialising, so a failure of the
   * resulting "shape" schema means a 400 (format error) and a failure of the full schema alone a 422.
   * `minimum: 0` on unsigned formats stays: it comes from the Rust type, so the deserialiser rejects it.
   */
  readonly shapeOnly: boolean;
}

function stripValidatorKeywords(node: JsonObject): void {
  for (const keyword of VALIDATOR_KEYWORDS) {
    if (!(keyword in node)) continue;
    const fromType =
      keyword === "minimum" &&
      node.minimum === 0 &&
      typeof node.format === "string" &&
      /^uint/.test(node.format);
    if (!fromType) delete node[keyword];
  }
}

function convertNode(node: Json, options: ConvertOptions): void {
  if (Array.isArray(node)) {
    for (const item of node) convertNode(item, options);
    return;
  }
  if (!isObject(node)) return;
  rewriteNullable(node);
  if (typeof node.$ref === "string") {
    node.$ref = node.$ref.replace("#/components/schemas/", `${DEFINITIONS_ID}#/definitions/`);
  }
  if (options.closedObjects && isObject(node.properties ?? null) && node.additionalProperties === undefined) {
    node.additionalProperties = false;
  }
  if (options.shapeOnly) stripValidatorKeywords(node);
  for (const [key, value] of Object.entries(node)) {
    // `properties` maps names to schemas: a payload field literally called "nullable" is no keyword.
    if (key === "properties" && isObject(value)) {
      for (const child of Object.values(value)) convertNode(child, options);
    } else if (key !== "enum" && key !== "default" && key !== "example") {
      convertNode(value, options);
    }
  }
}

/** A deep copy of `schema` converted for Ajv; the input is left untouched. */
export function convertSchema<T>(schema: T, options: ConvertOptions): T {
  const copy = structuredClone(schema) as Json;
  convertNode(copy, options);
  return copy as T;
}
