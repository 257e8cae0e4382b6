import { createHash, randomBytes } from "node:crypto";

/** 40 hex characters, the shape SharedCount keys have (some clients check it). */
export function generateApiKey(): string {
  return randomBytes(20).toString("hex");
}

/** Keys are 160 random bits, so SHA-256 is enough to keep a leaked table from revealing them, and it is cheap per request. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}
