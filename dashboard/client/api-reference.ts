import { z } from "zod";

/**
 * The API reference page's model, read from the API's OpenAPI document (never written by hand): each
 * operation with its parameters, and a curl example built from the document's schemas.
 */

const schemaObject: z.ZodType<JsonSchema> = z.lazy(() =>
  z
    .object({
      type: z.union([z.string(), z.array(z.string())]).optional(),
      enum: z.array(z.unknown()).optional(),
      example: z.unknown().optional(),
      description: z.string().optional(),
      properties: z.record(z.string(), schemaObject).optional(),
      required: z.array(z.string()).optional(),
      items: schemaObject.optional(),
      anyOf: z.array(schemaObject).optional(),
      oneOf: z.array(schemaObject).optional(),
      $ref: z.string().optional(),
      default: z.unknown().optional(),
    })
    .loose(),
);

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  example?: unknown;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
  default?: unknown;
}

const parameterSchema = z.object({
  name: z.string(),
  in: z.enum(["query", "path", "header", "cookie"]),
  required: z.boolean().optional(),
  description: z.string().optional(),
  schema: schemaObject.optional(),
});

const operationSchema = z.object({
  summary: z.string().optional(),
  tags: z.array(z.string()).optional(),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  parameters: z.array(parameterSchema).optional(),
  requestBody: z.object({ content: z.record(z.string(), z.object({ schema: schemaObject })) }).optional(),
  responses: z.record(z.string(), z.object({ description: z.string() }).loose()),
});

export const openApiSchema = z.object({
  openapi: z.string(),
  info: z.object({ title: z.string(), version: z.string() }).loose(),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.object({ schemas: z.record(z.string(), schemaObject).optional() }).loose().optional(),
});

export interface Parameter {
  name: string;
  in: string;
  required: boolean;
  description: string;
  /** The values it takes, when it is an enumeration. */
  values: string[];
}

/** An example request body, in the first content type the operation lists that curl examples can send. */
export interface ExampleBody {
  type: "application/json" | "text/plain";
  value: unknown;
}

export interface Operation {
  /** Its anchor on the page: `get-v1-0-bulk`. */
  id: string;
  method: string;
  path: string;
  group: string;
  summary: string;
  /** The scope a key needs for it (null: no key at all). */
  scope: string | null;
  parameters: Parameter[];
  body: ExampleBody | undefined;
  responses: { status: string; description: string }[];
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const BODY_TYPES = new Set<string>(["application/json", "text/plain"]);

/** A readable, unique anchor: `get-v1-0`, `post-v2-tracked`, `get-v2-history-csv`. */
export const anchorOf = (method: string, path: string) =>
  `${method}-${path}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");

/** Follows a `#/components/schemas/X` reference. */
function resolve(schema: JsonSchema | undefined, components: Record<string, JsonSchema>): JsonSchema | undefined {
  let current = schema;
  for (let depth = 0; current?.$ref && depth < 10; depth++) current = components[current.$ref.replace("#/components/schemas/", "")];
  return current;
}

/** A value the schema accepts: its example, default or first enum value, else one made from its type. */
export function exampleOf(schema: JsonSchema | undefined, components: Record<string, JsonSchema>, depth = 0): unknown {
  const s = resolve(schema, components);
  if (!s || depth > 6) return null;
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.enum && s.enum.length > 0) return s.enum[0];
  const alternative = s.anyOf?.[0] ?? s.oneOf?.[0];
  if (alternative) return exampleOf(alternative, components, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  if (type === "object" || s.properties) {
    // The required properties; with none required (one of several), the first stands for them.
    const required = new Set(s.required?.length ? s.required : Object.keys(s.properties ?? {}).slice(0, 1));
    return Object.fromEntries(
      Object.entries(s.properties ?? {})
        .filter(([name]) => required.has(name))
        .map(([name, property]) => [
          name,
          (name === "urls" || name.endsWith("url")) && resolve(property, components)?.example === undefined ? exampleUrl(name) : exampleOf(property, components, depth + 1),
        ]),
    );
  }
  if (type === "array") return [exampleOf(s.items, components, depth + 1)];
  if (type === "integer" || type === "number") return 1;
  if (type === "boolean") return true;
  return "…";
}

const exampleUrl = (name: string) => (name === "urls" ? ["https://example.com/post"] : "https://example.com/post");

export function operationsOf(document: z.infer<typeof openApiSchema>): Operation[] {
  const components = document.components?.schemas ?? {};
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const parsed = operationSchema.safeParse(methods[method]);
      if (!parsed.success) continue;
      const op = parsed.data;
      const [type, content] = Object.entries(op.requestBody?.content ?? {}).find(([type]) => BODY_TYPES.has(type)) ?? [];
      operations.push({
        id: anchorOf(method, path),
        method: method.toUpperCase(),
        path,
        group: op.tags?.[0] ?? "other",
        summary: op.summary ?? "",
        scope: Object.values(op.security?.[0] ?? {})[0]?.[0] ?? null,
        parameters: (op.parameters ?? []).map((p) => {
          const schema = resolve(p.schema, components);
          return {
            name: p.name,
            in: p.in,
            required: p.required ?? false,
            description: p.description ?? schema?.description ?? "",
            values: (schema?.enum ?? []).map(String),
          };
        }),
        body: content ? { type: type as ExampleBody["type"], value: exampleOf(content.schema, components) } : undefined,
        responses: Object.entries(op.responses).map(([status, r]) => ({ status, description: String(r.description) })),
      });
    }
  }
  return operations;
}

const QUERY_EXAMPLES: Record<string, string> = { url: "https://example.com/post", bulk_id: "BULK_ID", from: "2026-01-01", to: "2026-01-31" };

/** A value as one shell word (single quotes; a quote inside closes, escapes and reopens them). */
const shellWord = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;

/** Continues a shell command on the next line, indented: the body's options read one per line. */
const NEXT_LINE = " \\\n  ";

/** The path with a placeholder for each parameter: `{delivery_id}` is DELIVERY_ID, an `{id}` after `/imports/` IMPORT_ID. */
const pathExample = (path: string) =>
  path.replace(/([a-z_]+?)s\/\{id\}/g, (_, resource: string) => `${resource}s/${resource.toUpperCase()}_ID`).replace(/\{([a-z_]+)\}/g, (_, name: string) => name.toUpperCase());

/**
 * A curl command for the operation: its required query parameters, the key in the query, and its body: JSON
 * as `-d`, plain lines piped in from printf (one argument per line: runnable in any POSIX shell).
 */
export function curlExample(operation: Operation, origin: string, apiKey: string): string {
  const query = new URLSearchParams();
  for (const p of operation.parameters) {
    if (p.in !== "query" || p.name === "apikey" || p.name === "callback") continue;
    if (p.required) query.set(p.name, QUERY_EXAMPLES[p.name] ?? p.values[0] ?? "…");
  }
  query.set("apikey", apiKey);
  const path = pathExample(operation.path);
  const method = operation.method === "GET" ? "" : ` -X ${operation.method}`;
  const curl = `curl${method} "${origin}${path}?${query.toString().replace(/%2F/g, "/").replace(/%3A/g, ":")}"`;
  const body = operation.body;
  if (!body) return curl;
  if (body.type === "text/plain") {
    const lines = String(body.value).split("\n").map(shellWord).join(" ");
    return `printf '%s\\n' ${lines} |${NEXT_LINE}${curl}${NEXT_LINE}-H "Content-Type: text/plain"${NEXT_LINE}--data-binary @-`;
  }
  return `${curl}${NEXT_LINE}-H "Content-Type: application/json"${NEXT_LINE}-d ${shellWord(JSON.stringify(body.value))}`;
}

/** Whether the operation matches every word of the search: in its method, path, summary or parameters' names. */
export function matchesSearch(operation: Operation, search: string): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [operation.method, operation.path, operation.group, operation.summary, ...operation.parameters.map((p) => p.name)].join(" ").toLowerCase();
  return words.every((word) => text.includes(word));
}
