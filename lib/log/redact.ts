/**
 * What never reaches a log line: keys, bearer tokens, cookies and passwords, wherever a line carries them. Object
 * fields are censored by name (pino's redact paths, up to two levels deep); text (messages, error messages and
 * stacks, text fields) has its `apikey=` values (plain or percent-encoded) and bearer tokens replaced.
 */
const FIELDS = [
  "apikey",
  "apiKey",
  "api_key",
  "x-api-key",
  "authorization",
  "cookie",
  "set-cookie",
  "password",
  "newPassword",
  "currentPassword",
  "secret",
  "token",
  "sessionToken",
  "session_token",
];

export const REDACT_PATHS = [...FIELDS, ...FIELDS.map((field) => `*.${field}`), ...FIELDS.map((field) => `*.*.${field}`)];

export const CENSOR = "[redacted]";

const KEY_IN_TEXT = /((?:^|[?&;\s"',]|%26|%3f)api[-_]?key(?:=|%3d))[^&\s"'#;]*/gi;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi;

/** `text` with key values after `apikey=` (however it is spelled or encoded) and bearer tokens replaced. */
export function scrubText(text: string): string {
  if (!/key|bearer/i.test(text)) return text;
  return text.replace(KEY_IN_TEXT, `$1${CENSOR}`).replace(BEARER, `$1 ${CENSOR}`);
}

const KEY_SHAPED_RUN = /(bulk_id=)?[0-9a-f]{40,}/gi;

/**
 * A request target with every run of 40 hex digits (the shape of a key, however it was sent: `key=`, `apikey[]=`,
 * inside a URL) replaced, except a `bulk_id` value: bulk ids have that shape too, and are no secret.
 */
export function withoutKeyShapedRuns(target: string): string {
  return target.replace(KEY_SHAPED_RUN, (run, bulkId: string | undefined) => (bulkId ? run : CENSOR));
}
