import type { IncomingMessage } from "node:http";
import type { z } from "zod";
import { ApiError, apiErrors } from "./errors.ts";
import { invalidParameter } from "./validate.ts";

/**
 * A small JSON request body (v2's), read whole up to `maxBytes` and checked against its schema. Bulk
 * bodies, which may be megabytes of URLs, are read as a stream instead (bulk/body).
 */
export async function readJsonBody<S extends z.ZodType>(req: IncomingMessage, schema: S, maxBytes: number): Promise<z.output<S>> {
  const type = req.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(type)) throw new ApiError("invalid_body", 415, "Send the body as JSON (Content-Type: application/json).");
  if (Number(req.headers["content-length"] ?? 0) > maxBytes) throw apiErrors.bodyTooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw apiErrors.bodyTooLarge(maxBytes);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError("invalid_body", 400, "The request body did not arrive whole: the connection broke off.");
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new ApiError("invalid_body", 400, "The body is not valid JSON.");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw invalidParameter(parsed.error, "invalid_body");
  return parsed.data;
}
