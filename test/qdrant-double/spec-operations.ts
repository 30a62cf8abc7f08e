import { readFileSync } from "node:fs";

/** One operation of the spec: what the router matches and what the validator checks. */
export interface SpecOperation {
  readonly method: string;
  /** The path template as the spec writes it, e.g. `/collections/{collection_name}/points/{id}`. */
  readonly template: string;
  readonly operationId: string;
  readonly pattern: RegExp;
  readonly pathParams: readonly string[];
  /** Literal segments count; more literal segments win when two templates match one path. */
  readonly specificity: number;
  readonly bodySchema?: unknown;
  /** Schema of the 200 answer, to check the double answers what a client expects. */
  readonly responseSchema?: unknown;
  readonly queryParams: readonly QueryParam[];
}

export interface QueryParam {
  readonly name: string;
  readonly required: boolean;
  readonly schema: unknown;
}

interface RawParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
}

interface RawOperation {
  operationId: string;
  parameters?: RawParameter[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

export interface LoadedSpec {
  readonly operations: readonly SpecOperation[];
  readonly schemas: Record<string, unknown>;
}

const METHODS = ["get", "put", "post", "delete", "patch", "head"] as const;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function compileTemplate(template: string): { pattern: RegExp; names: string[]; specificity: number } {
  const names: string[] = [];
  let specificity = 0;
  const source = template
    .split("/")
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      if (param?.[1]) {
        names.push(param[1]);
        return "([^/]+)";
      }
      if (segment) specificity += 1;
      return escapeRegExp(segment);
    })
    .join("/");
  return { pattern: new RegExp(`^${source}$`), names, specificity };
}

function toOperation(method: string, template: string, raw: RawOperation): SpecOperation {
  const { pattern, names, specificity } = compileTemplate(template);
  const queryParams = (raw.parameters ?? [])
    .filter((parameter) => parameter.in === "query")
    .map((parameter) => ({
      name: parameter.name,
      required: parameter.required === true,
      schema: parameter.schema,
    }));
  const bodySchema = raw.requestBody?.content?.["application/json"]?.schema;
  const responseSchema = raw.responses?.["200"]?.content?.["application/json"]?.schema;
  return {
    method: method.toUpperCase(),
    template,
    operationId: raw.operationId,
    pattern,
    pathParams: names,
    specificity,
    queryParams,
    ...(bodySchema === undefined ? {} : { bodySchema }),
    ...(responseSchema === undefined ? {} : { responseSchema }),
  };
}

/** Reads an OpenAPI file and lists its operations, most specific templates first. */
export function loadSpec(file: string): LoadedSpec {
  const document = JSON.parse(readFileSync(file, "utf8")) as {
    paths: Record<string, Record<string, RawOperation>>;
    components: { schemas: Record<string, unknown> };
  };
  const operations: SpecOperation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const raw = item[method];
      if (raw) operations.push(toOperation(method, template, raw));
    }
  }
  operations.sort((a, b) => b.specificity - a.specificity);
  return { operations, schemas: document.components.schemas };
}

/** The operation serving `method path`, with its decoded path params; undefined is a 404. */
export function matchOperation(
  operations: readonly SpecOperation[],
  method: string,
  path: string,
): { operation: SpecOperation; params: Record<string, string> } | undefined {
  for (const operation of operations) {
    if (operation.method !== method) continue;
    const found = operation.pattern.exec(path);
    if (!found) continue;
    const params: Record<string, string> = {};
    operation.pathParams.forEach((name, index) => {
      params[name] = decodeURIComponent(found[index + 1] ?? "");
    });
    return { operation, params };
  }
  return undefined;
}
