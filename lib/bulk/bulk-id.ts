import { randomBytes } from "node:crypto";

/**
 * 160 random bits as 40 lowercase hex characters, the form the SharedCount API's ids have (clients may check
 * it): unguessable, so an id reveals nothing and cannot be enumerated.
 */
export function newBulkId(): string {
  return randomBytes(20).toString("hex");
}
