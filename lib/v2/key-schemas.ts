import { z } from "zod";
import { DEFAULT_GRACE_SECONDS, MAX_GRACE_SECONDS, MAX_KEYS } from "../keys/api-keys.ts";
import { SCOPES, scopeList } from "../keys/scopes.ts";
import { apikey } from "./schemas.ts";

/** API v2's key routes: requests and answers. */

export const MAX_KEY_NAME_LENGTH = 100;

const at = z.iso.datetime();
export const keyName = z
  .string()
  .trim()
  .min(1, "name must not be empty")
  .max(MAX_KEY_NAME_LENGTH, `name is over ${MAX_KEY_NAME_LENGTH} characters`)
  .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), "name may not contain control characters")
  .meta({ description: `What the key is for, at most ${MAX_KEY_NAME_LENGTH} characters`, example: "WordPress plugin" });
export const keyScopes = scopeList.meta({
  description: `What the key may do, at least one of: ${SCOPES.join(", ")}. A key can only grant scopes it has itself.`,
  example: ["counts:read"],
});

export const keyQuerySchema = z.strictObject({ apikey });

export const keyCreateBodySchema = z.strictObject({
  name: keyName,
  scopes: keyScopes,
  expires_at: at.nullable().optional().meta({ description: "When the key stops working (ISO 8601, in the future); none: never" }),
});

export const keyRollBodySchema = z.strictObject({
  grace_seconds: z
    .number()
    .int("grace_seconds must be a whole number of seconds")
    .min(0, "grace_seconds must be 0 or more")
    .max(MAX_GRACE_SECONDS, `grace_seconds is at most ${MAX_GRACE_SECONDS} (7 days)`)
    .default(DEFAULT_GRACE_SECONDS)
    .meta({ description: `How long the old key keeps working, in seconds (0 to ${MAX_GRACE_SECONDS}; default ${DEFAULT_GRACE_SECONDS}, a day)` }),
});

const keyFields = {
  id: z.string().meta({ example: "key_3f1c9a0b7d2e4f60a1b2c3d4" }),
  name: z.string(),
  prefix: z.string().nullable().meta({ description: "The key's first 8 characters (null only for a key carried over and never listed since)", example: "3f1c9a0b" }),
  scopes: z.array(z.enum(SCOPES)),
  created_at: at,
  expires_at: at.nullable(),
};

export const keySchema = z
  .object({ ...keyFields, last_used_at: at.nullable().meta({ description: "Within a minute" }), revoked_at: at.nullable() })
  .meta({ id: "ApiKey" });

export const keyListSchema = z.object({ data: z.array(keySchema).max(MAX_KEYS) });

export const issuedKeySchema = z
  .object({ ...keyFields, key: z.string().regex(/^[0-9a-f]{40}$/).meta({ description: "The key itself, shown only in this answer" }) })
  .meta({ id: "IssuedApiKey" });
