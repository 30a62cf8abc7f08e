import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { FormatsPlugin } from "ajv-formats";
import * as addFormatsModule from "ajv-formats";
import { convertSchema, DEFINITIONS_ID, VALIDATOR_KEYWORDS } from "./convert-spec.js";
import { QdrantError } from "./qdrant-error.js";
import type { LoadedSpec, QueryParam, SpecOperation } from "./spec-operations.js";

// ajv-formats is CommonJS with an `exports.default`; under NodeNext that lands one level down.
const addFormats = addFormatsModule.default as unknown as FormatsPlugin;

/** Rust-side number formats: the JSON type already carries the check that matters. */
const NO_OP_FORMATS = [
  "uint64",
  "uint32",
  "uint16",
  "uint8",
  "uint",
  "int64",
  "int32",
  "float",
  "double",
  "binary",
  "partial-date-time",
];

function makeAjv(schemas: Record<string, unknown>, shapeOnly: boolean): Ajv {
  // Only the shape pass (run after a failure, to classify it) collects every error: it finds the bad id.
  const ajv = new Ajv({
    strict: false,
    allErrors: shapeOnly,
    verbose: true,
    inlineRefs: false,
    validateSchema: false,
  });
  addFormats(ajv, ["date-time", "uri"]);
  // The server takes a UUID hyphenated, as 32 hex digits or as a `urn:uuid:` URN, in any case.
  ajv.addFormat("uuid", /^(?:urn:uuid:)?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i);
  for (const format of NO_OP_FORMATS) ajv.addFormat(format, true);
  const definitions = convertSchema(schemas, { closedObjects: true, shapeOnly });
  ajv.addSchema({ $id: DEFINITIONS_ID, definitions });
  return ajv;
}

/**
 * Validates bodies and query params against the spec. A request that does not deserialise (wrong type,
 * unknown field, bad enum) is a 400 "Format error"; one that deserialises but breaks a constraint is a
 * 422 "Validation error", as the server distinguishes serde from its `validator` pass. The shape schema
 * is compiled only when a request fails, since compiling costs more than validating.
 */
export class RequestValidator {
  private shapeAjv: Ajv | undefined;
  private readonly fullAjv: Ajv;
  private readonly full = new Map<unknown, ValidateFunction>();
  private readonly shape = new Map<unknown, ValidateFunction>();

  constructor(private readonly spec: LoadedSpec) {
    this.fullAjv = makeAjv(spec.schemas, false);
  }

  private compiled(schema: unknown, shapeOnly: boolean): ValidateFunction {
    const cache = shapeOnly ? this.shape : this.full;
    let found = cache.get(schema);
    if (!found) {
      this.shapeAjv ??= shapeOnly ? makeAjv(this.spec.schemas, true) : undefined;
      const ajv = shapeOnly ? (this.shapeAjv as Ajv) : this.fullAjv;
      found = ajv.compile(convertSchema(schema as object, { closedObjects: true, shapeOnly }));
      cache.set(schema, found);
    }
    return found;
  }

  /** Throws the server's 400/422 when `body` does not fit the operation's request body. */
  validateBody(operation: SpecOperation, body: unknown): void {
    if (operation.bodySchema === undefined) return;
    const full = this.compiled(operation.bodySchema, false);
    if (full(body)) return;
    const shape = this.compiled(operation.bodySchema, true);
    if (!shape(body))
      throw new QdrantError(400, `Format error in JSON body: ${describeFormatError(shape.errors)}`);
    throw new QdrantError(422, `Validation error in JSON body: [${describeValidationErrors(full.errors)}]`);
  }

  /** What is wrong with a 200 answer of `operation` (closed objects too); empty when it fits the spec. */
  responseErrors(operation: SpecOperation, body: unknown): string[] {
    if (operation.responseSchema === undefined) return [];
    const check = this.compiled(operation.responseSchema, false);
    if (check(body)) return [];
    return (check.errors ?? []).map(
      (error) => `${jsonPath(error.instancePath)}: ${error.message ?? "invalid"}`,
    );
  }

  /** Coerces the query string to the spec's types; throws 400/422 like the server. */
  parseQuery(operation: SpecOperation, query: Readonly<Record<string, string>>): Record<string, unknown> {
    const parsed: Record<string, unknown> = {};
    const known = new Map(operation.queryParams.map((param) => [param.name, param]));
    for (const name of Object.keys(query)) {
      // Stricter than the server, which ignores unknown query params: a typo such as `wiat` is a bug.
      if (!known.has(name))
        throw new QdrantError(400, `Deserialize error in query parameters: unknown field \`${name}\``);
    }
    for (const param of operation.queryParams) {
      const raw = query[param.name];
      if (raw === undefined) {
        if (param.required) {
          throw new QdrantError(
            400,
            `Deserialize error in query parameters: missing field \`${param.name}\``,
          );
        }
        continue;
      }
      parsed[param.name] = this.parseQueryValue(param, raw);
    }
    return parsed;
  }

  private parseQueryValue(param: QueryParam, raw: string): unknown {
    const shape = this.compiled(param.schema, true);
    const full = this.compiled(param.schema, false);
    const candidates: unknown[] = [raw];
    if (raw === "true" || raw === "false") candidates.unshift(raw === "true");
    if (/^-?\d+(\.\d+)?$/.test(raw)) candidates.unshift(Number(raw));
    const value = candidates.find((candidate) => shape(candidate));
    if (value === undefined) {
      throw new QdrantError(
        400,
        `Deserialize error in query parameters: invalid value \`${raw}\` for \`${param.name}\``,
      );
    }
    if (!full(value)) {
      const detail = describeValidationErrors(full.errors).replace(/^\(root\)/, param.name);
      throw new QdrantError(422, `Validation error in query parameters: [${detail}]`);
    }
    return value;
  }
}

function jsonPath(instancePath: string): string {
  if (!instancePath) return "(root)";
  return instancePath
    .slice(1)
    .split("/")
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), "");
}

// Only `ExtendedPointId` carries the uuid format in request bodies.
const isPointIdError = (error: ErrorObject): boolean =>
  error.keyword === "format" && error.params.format === "uuid";

function describeFormatError(errors: ErrorObject[] | null | undefined): string {
  const list = errors ?? [];
  const idError = list.find(isPointIdError);
  if (idError) {
    return `value ${JSON.stringify(idError.data)} is not a valid point ID, valid values are either an unsigned integer or a UUID at ${jsonPath(idError.instancePath)}`;
  }
  // The deepest error names the field that broke; the anyOf summaries above it say little.
  // An unknown field is the likeliest cause (a typo, or a field of a newer server version).
  const unknown = list.filter((error) => error.keyword === "additionalProperties");
  const candidates = unknown.length > 0 ? unknown : list;
  const deepest = [...candidates].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  if (!deepest) return "invalid body";
  const extra =
    deepest.keyword === "additionalProperties" ? ` \`${String(deepest.params.additionalProperty)}\`` : "";
  return `${jsonPath(deepest.instancePath)}: ${deepest.message ?? "invalid"}${extra}`;
}

const CONSTRAINT_KEYWORDS = new Set<string>(VALIDATOR_KEYWORDS);

function describeValidationErrors(errors: ErrorObject[] | null | undefined): string {
  const all = errors ?? [];
  // anyOf branches that fail on type only add noise: the constraint errors name what to fix.
  const constraints = all.filter((error) => CONSTRAINT_KEYWORDS.has(error.keyword));
  const parts = (constraints.length > 0 ? constraints : all).map((error) => {
    const path = jsonPath(error.instancePath);
    const limit = error.params.limit as number | undefined;
    if (error.keyword === "minimum" || error.keyword === "exclusiveMinimum") {
      return `${path}: value ${String(error.data)} invalid, must be ${limit} or larger`;
    }
    if (error.keyword === "maximum" || error.keyword === "exclusiveMaximum") {
      return `${path}: value ${String(error.data)} invalid, must be ${limit} or smaller`;
    }
    return `${path}: ${error.message ?? "invalid"}`;
  });
  return [...new Set(parts)].join(", ");
}
