import type { z } from "zod";
import { ApiError } from "./errors.ts";
import type { QueryParams } from "./query.ts";

/** The first problem zod found, as the API's error: which parameter, and what is wrong with it. */
export function invalidParameter(error: z.ZodError, code: "invalid_parameter" | "invalid_body" = "invalid_parameter"): ApiError {
  const issue = error.issues[0]!;
  const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return new ApiError(code, 400, `${where}${issue.message}`);
}

/** The query string checked against an endpoint's schema (the one its OpenAPI description is generated from). */
export function validQuery<S extends z.ZodType>(schema: S, params: QueryParams): z.output<S> {
  const parsed = schema.safeParse(Object.fromEntries(params));
  if (!parsed.success) throw invalidParameter(parsed.error);
  return parsed.data;
}
