import { SharecountError } from "../errors.ts";

/** What the key verbs refuse; the API answers each with its status (service/http/errors.ts), the dashboard likewise. */
export type KeyErrorCode = "invalid_parameter" | "too_many_keys" | "key_not_found" | "insufficient_scope";

export class KeyError extends SharecountError<KeyErrorCode> {
  static override readonly kind: string = "KeyError";
}

export const keyErrors = {
  notFound: () => new KeyError("key_not_found", "No API key with this id for this account."),
  tooMany: (max: number) => new KeyError("too_many_keys", `An account has at most ${max} API keys: revoke one (DELETE /v2/keys/{id}) before adding another.`),
  grants: (scopes: readonly string[]) =>
    new KeyError("insufficient_scope", `A key can only create, roll or revoke keys within its own scopes; it lacks ${scopes.join(", ")}.`),
  revoked: () => new KeyError("invalid_parameter", "This key is revoked: it cannot be rolled."),
};
