import { SharecountError } from "../errors.ts";

/** What the key verbs refuse; the API answers each with its status (service/http/errors.ts), the dashboard likewise. */
export type KeyErrorCode = "invalid_parameter" | "too_many_keys" | "key_not_found" | "insufficient_scope" | "key_not_rollable";

export class KeyError extends SharecountError<KeyErrorCode> {
  static override readonly kind: string = "KeyError";
}

export const keyErrors = {
  notFound: () => new KeyError("key_not_found", "No API key with this id for this account."),
  tooMany: (max: number) =>
    new KeyError("too_many_keys", `An account has at most ${max} live API keys (revoked and expired ones do not count): revoke one (DELETE /v2/keys/{id}) before adding another.`),
  grants: (scopes: readonly string[]) =>
    new KeyError("insufficient_scope", `A key can only create, roll or revoke keys within its own scopes; it lacks ${scopes.join(", ")}.`),
  // A key is rolled once, while it works: its successor carries its name, scopes and expiry on.
  revoked: () => new KeyError("key_not_rollable", "This key is revoked: it cannot be rolled. Create a new key instead."),
  expired: (at: number) => new KeyError("key_not_rollable", `This key expired at ${new Date(at).toISOString()}: it cannot be rolled. Create a new key instead.`),
  rolled: (successor: string | null) =>
    new KeyError("key_not_rollable", `This key was already rolled${successor ? ` (its replacement is ${successor})` : ""}: it cannot be rolled again. Roll its replacement instead.`),
};
