/**
 * The last guard between a secret and the audit log, which every member of an account can read: a value shaped
 * like one of this service's secrets is redacted where it appears (`[redacted]` in its place), and a field named
 * like a credential has its whole value redacted. It never refuses the event: a whitelist entry, an address or a
 * key's name that merely looks like a key is the user's to choose, and the change it comes with goes through.
 * The catalogue's schemas already name every field; this catches a schema that one day lets one through.
 */

const SECRET_WORDS = ["password", "passwd", "secret", "token", "hash", "apikey", "credential"];

/** `passwordHash`, `api_key`, `signing-secret`, `key`: a credential's name in any case style. */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const joined = words.join("");
  return words.includes("key") || SECRET_WORDS.some((word) => joined.includes(word));
}

/** What takes a secret's place in the log. */
export const REDACTED = "[redacted]";

/**
 * A webhook signing secret (`whsec_` and what follows it, base64 or base64url) or a 40-hex API key, wherever it
 * appears: any run of 40 hex digits or more (two keys side by side are one run), bounded by anything but a letter
 * or digit, so `<40 hex>.example.com`, `<40 hex>@…` and `x_<40 hex>` are all caught.
 */
const SECRET_VALUES = /whsec_[A-Za-z0-9+/=_-]*|(?<![A-Za-z0-9])[0-9a-fA-F]{40,}(?![A-Za-z0-9])/g;

/** True when `text` holds something shaped like a secret. */
export const holdsSecret = (text: string): boolean => new RegExp(SECRET_VALUES.source).test(text);

/**
 * `text` with each secret-shaped part replaced by `[redacted]`. A short `whsec_` mention grows by a few
 * characters; `compact` keeps the result no longer than `text` (or `[redacted]`), replacing a string that would
 * grow with `[redacted]` whole, so that it still fits its field's bound.
 */
export function redactText(text: string, compact = false): string {
  // One pass is enough: a replacement is bracketed, so it cannot join its neighbours into a new match.
  const redacted = text.replace(SECRET_VALUES, REDACTED);
  return compact && redacted.length > Math.max(text.length, REDACTED.length) ? REDACTED : redacted;
}

/**
 * A copy of `value` with every secret-shaped part of its strings redacted, and the whole value of a field named
 * like a credential. Numbers, booleans and null pass as they are. `compact` as for redactText.
 */
export function redactSecrets<T>(value: T, compact = false): T {
  if (typeof value === "string") return redactText(value, compact) as T;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, compact)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, isSecretName(name) ? REDACTED : redactSecrets(item, compact)]),
    ) as T;
  }
  return value;
}
