/**
 * The last guard between a secret and the audit log, which every member of an account can read: a field
 * named like a credential, or a value shaped like one of this service's secrets, refuses the whole event.
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

/** A webhook signing secret (`whsec_…`) or a 40-hex API key, wherever it appears. */
const SECRET_VALUE = /whsec_|\b[0-9a-f]{40}\b/i;

export class AuditRedactionError extends Error {
  constructor(readonly path: string) {
    super(`audit changes may not carry a secret (${path})`);
    this.name = "AuditRedactionError";
  }
}

/** Throws AuditRedactionError at the first field named like a secret or holding one. */
export function assertNoSecrets(value: unknown, path = "changes"): void {
  if (typeof value === "string") {
    if (SECRET_VALUE.test(value)) throw new AuditRedactionError(path);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => assertNoSecrets(item, `${path}[${i}]`));
    return;
  }
  if (value !== null && typeof value === "object") {
    for (const [name, item] of Object.entries(value)) {
      if (isSecretName(name)) throw new AuditRedactionError(`${path}.${name}`);
      assertNoSecrets(item, `${path}.${name}`);
    }
  }
}
