import { randomBytes } from "node:crypto";
import type { Context } from "hono";
import { z } from "zod";
import { parseCountUrl } from "../../lib/urls/count-url.ts";
import { hostAllowed } from "../../lib/whitelist/domains.ts";
import { ApiError } from "../http/errors.ts";
import type { AccountContext } from "../store/types.ts";

export interface BulkBody {
  text: string;
  /** `apikey` sent as a body parameter, as the interface lists it. */
  apiKey?: string;
}

const jsonBody = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  apikey: z.string().optional(),
});

/** A body whose first line is a URL (after blank space or a byte-order mark): a list of URLs, not form fields. */
const PLAIN_URL_LIST = /^[\s\uFEFF]*https?:\/\//i;

const invalidBody = (what: string) => new ApiError("invalid_body", 400, `The request body could not be read as ${what}.`);

/** Every body shape clients send: plain text (with or without Content-Type), form fields, multipart, JSON. */
export async function readBulkBody(c: Context): Promise<BulkBody> {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody({ all: true });
    } catch {
      throw invalidBody("multipart form data");
    }
    const field = (name: string) => [form[name] ?? []].flat();
    const parts = await Promise.all(field("urls").map((v) => (typeof v === "string" ? v : v.text())));
    return { text: parts.join("\n"), apiKey: field("apikey").find((v): v is string => typeof v === "string") };
  }
  const text = await c.req.text();
  if (type.startsWith("application/x-www-form-urlencoded")) {
    // `curl --data-binary @urls.txt` labels a plain list of URLs as a form: a body that starts with a URL is
    // such a list (its URLs' own query strings may hold `&urls=`), and so is one without a urls field.
    if (PLAIN_URL_LIST.test(text)) return { text };
    const form = new URLSearchParams(text);
    if (form.has("urls")) return { text: form.getAll("urls").join("\n"), apiKey: form.get("apikey") ?? undefined };
    return { text };
  }
  if (type.startsWith("application/json")) {
    let parsed: z.infer<typeof jsonBody>;
    try {
      parsed = jsonBody.parse(JSON.parse(text));
    } catch {
      throw invalidBody('JSON of the form {"urls": ["https://…", …]}');
    }
    return { text: Array.isArray(parsed.urls) ? parsed.urls.join("\n") : parsed.urls, apiKey: parsed.apikey };
  }
  return { text };
}

/**
 * The URLs a job will count: one per line; invalid lines, lines the whitelist refuses and repeats of a URL
 * (after normalization) are dropped, as the interface says, without an error.
 */
export function acceptBulkUrls(text: string, account: AccountContext): { url: string; countUrl: string }[] {
  const seen = new Set<string>();
  const accepted: { url: string; countUrl: string }[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    const url = line.trim();
    if (url.length === 0) continue;
    const parsed = parseCountUrl(url);
    if (!parsed.ok || seen.has(parsed.normalized)) continue;
    if (account.whitelist.enabled && !hostAllowed(parsed.url.hostname, account.whitelist.domains)) continue;
    seen.add(parsed.normalized);
    accepted.push({ url, countUrl: parsed.normalized });
  }
  return accepted;
}

/** 144 random bits: unguessable, so an id reveals nothing and cannot be enumerated. */
export function newBulkId(): string {
  return randomBytes(18).toString("base64url");
}
