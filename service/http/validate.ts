import type { z } from "zod";
import { ApiError } from "./errors.ts";
import type { QueryParams } from "./query.ts";

const NAMED_KEYS = 5;

/** The first problem zod found, as the API's error: which parameter, and what is wrong with it. */
export function invalidParameter(error: z.ZodError, code: "invalid_parameter" | "invalid_body" = "invalid_parameter"): ApiError {
  const issue = error.issues[0]!;
  const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  if (issue.code === "unrecognized_keys") {
    // A few names are enough to see the mistake; a body of a million keys must not come back as the error.
    const named = issue.keys.slice(0, NAMED_KEYS).map((k) => JSON.stringify(k.length > 64 ? `${k.slice(0, 64)}…` : k));
    const more = issue.keys.length - named.length;
    const names = `${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
    const hint = code === "invalid_parameter" ? " (a url's own query string must be percent-encoded, or it is read as parameters)" : "";
    return new ApiError(code, 400, `${where}unknown ${issue.keys.length === 1 ? "parameter" : "parameters"} ${names}${hint}.`);
  }
  return new ApiError(code, 400, `${where}${issue.message}`);
}

/** Parameters any endpoint may carry and ignore: a cache buster (`_`), and `apikey`/`apiKey` (read by the caller). */
const IGNORED = new Set(["_", "apiKey"]);

/**
 * The query string checked against an endpoint's schema (the one its OpenAPI description is generated
 * from); an empty value counts as absent, so `limit=` takes the default. An empty `cursor` is refused: it is
 * what a client sends for a null next_cursor, and taken as absent it would start over at the first page forever.
 */
export function validQuery<S extends z.ZodType>(schema: S, params: QueryParams): z.output<S> {
  if (params.get("cursor") === "") throw new ApiError("invalid_parameter", 400, "cursor: empty; leave it out for the first page (a next_cursor of null means there are no more).");
  const given = Object.fromEntries([...params].filter(([name, value]) => value !== "" && !IGNORED.has(name)));
  const parsed = schema.safeParse(given);
  if (!parsed.success) throw invalidParameter(parsed.error);
  return parsed.data;
}
