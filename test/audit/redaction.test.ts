import { describe, expect, it } from "vitest";
import { networkOf } from "../../lib/audit/actor.ts";
import { AUDIT_ACTIONS, auditChangeSchema } from "../../lib/audit/catalogue.ts";
import { holdsSecret, isSecretName, REDACTED, redactSecrets, redactText } from "../../lib/audit/redaction.ts";

describe("the redaction guard", () => {
  const KEY = "3f1c0a9e5b7d2c4f6a8b0d1e3f5a7c9b1d3e5f70";
  const WHSEC = `whsec_${"c2VjcmV0".repeat(4)}`;

  it("redacts the whole value of a field named like a credential, in any case style and at any depth", () => {
    for (const name of ["password", "newPassword", "password_hash", "secret", "signingSecret", "webhook-secret", "token", "accessToken", "session_token", "key", "api_key", "apiKey", "key_hash", "hash", "keyHash", "credentials"]) {
      expect(isSecretName(name), name).toBe(true);
      expect(redactSecrets({ nested: [{ [name]: "x", other: 1 }] })).toEqual({ nested: [{ [name]: REDACTED, other: 1 }] });
    }
  });

  it("lets ordinary fields and values through unchanged", () => {
    for (const name of ["host", "events", "endpoint_id", "from", "to", "keyboard", "monkey_count", "via", "other_sessions_ended", "id", "name", "prefix", "scopes"]) {
      expect(isSecretName(name), name).toBe(false);
    }
    const ordinary = { host: "example.com", events: ["bulk.completed"], before: 2, enabled: false, none: null, short: "0123456789abcdef", long: "z".repeat(41) };
    expect(redactSecrets(ordinary)).toEqual(ordinary);
    // Fewer than 40 hex digits, or hex inside a longer word, are not a key's shape.
    expect(redactText(KEY.slice(1))).toBe(KEY.slice(1));
    expect(redactText(`g${KEY}`)).toBe(`g${KEY}`);
  });

  it("redacts only the part shaped like a webhook secret or an API key, wherever it is", () => {
    expect(redactSecrets({ host: WHSEC })).toEqual({ host: REDACTED });
    expect(redactSecrets({ list: ["ok", KEY] })).toEqual({ list: ["ok", REDACTED] });
    expect(redactText(`${KEY}.example.com`)).toBe("[redacted].example.com");
    expect(redactText(`${KEY.toUpperCase()}@example.com`)).toBe("[redacted]@example.com");
    expect(redactText(`ci ${WHSEC} rotation`)).toBe("ci [redacted] rotation");
    expect(redactText("ci whsec_ rotation")).toBe("ci [redacted] rotation");
    expect(redactText(`x_${KEY}_y ${KEY}`)).toBe("x_[redacted]_y [redacted]");
    expect(redactText(`whsec_${KEY}`)).toBe(REDACTED);
    // A longer hex run may hold a key (two side by side): redacted whole.
    expect(redactText(`${KEY}0`)).toBe(REDACTED);
    expect(redactText(`${KEY}${KEY}.example.com`)).toBe("[redacted].example.com");
  });

  it("compact redaction never makes a string longer than it was (or than [redacted])", () => {
    expect(redactText("ci whsec_ rotation", true)).toBe(REDACTED);
    expect(redactText("whsec_", true)).toBe(REDACTED);
    expect(redactText(`a ${KEY} b`, true)).toBe("a [redacted] b");
    for (const text of ["whsec_ ".repeat(14), `${KEY} whsec_ `.repeat(3), "plain"]) {
      expect(redactText(text, true).length).toBeLessThanOrEqual(Math.max(text.length, REDACTED.length));
    }
  });

  it("nothing shaped like a secret is left after redaction", () => {
    const inputs = [WHSEC, KEY, `${KEY}${KEY}`, `${KEY}-${KEY}`, `whsec_whsec_${KEY}`, `[${KEY}]`, `${"a".repeat(20)}whsec_${"b".repeat(20)}`];
    for (const input of inputs) {
      for (const compact of [false, true]) {
        const out = redactText(input, compact);
        expect(holdsSecret(out), `${input} → ${out}`).toBe(false);
        expect(out).not.toContain("whsec_");
        expect(out).not.toContain(KEY);
      }
    }
  });

  it("no action of the catalogue names a field the guard redacts whole", () => {
    for (const option of auditChangeSchema.options) {
      const fields = Object.keys(option.shape.changes.shape);
      expect(fields.filter(isSecretName), option.shape.action.value).toEqual([]);
    }
    expect(AUDIT_ACTIONS).toEqual(expect.arrayContaining(["key.created", "key.rolled", "key.revoked", "member.invited", "member.joined", "member.removed", "member.role_changed"]));
  });

  it("the catalogue refuses unknown actions and fields", () => {
    expect(auditChangeSchema.safeParse({ action: "account.hacked", changes: {} }).success).toBe(false);
    expect(auditChangeSchema.safeParse({ action: "plan.changed", changes: { from: "free", to: "plus", password: "x" } }).success).toBe(false);
    expect(auditChangeSchema.safeParse({ action: "plan.changed", changes: { from: "free", to: "x".repeat(41) } }).success).toBe(false);
  });
});

describe("client networks", () => {
  it("keeps an IPv4 address's /24 and an IPv6 address's /48", () => {
    expect(networkOf("203.0.113.77")).toBe("203.0.113.0/24");
    expect(networkOf("::ffff:198.51.100.9")).toBe("198.51.100.0/24");
    expect(networkOf("2001:db8:abcd:12:1:2:3:4")).toBe("2001:db8:abcd::/48");
    expect(networkOf("unknown")).toBeNull();
    expect(networkOf(null)).toBeNull();
  });
});
