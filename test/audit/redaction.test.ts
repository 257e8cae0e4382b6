import { describe, expect, it } from "vitest";
import { networkOf } from "../../lib/audit/actor.ts";
import { AUDIT_ACTIONS, auditChangeSchema } from "../../lib/audit/catalogue.ts";
import { assertNoSecrets, AuditRedactionError, isSecretName } from "../../lib/audit/redaction.ts";

describe("the redaction guard", () => {
  it("refuses a field named like a credential, in any case style and at any depth", () => {
    for (const name of ["password", "newPassword", "password_hash", "secret", "signingSecret", "webhook-secret", "token", "accessToken", "session_token", "key", "api_key", "apiKey", "key_hash", "hash", "keyHash", "credentials"]) {
      expect(isSecretName(name), name).toBe(true);
      expect(() => assertNoSecrets({ nested: [{ [name]: "x" }] })).toThrow(AuditRedactionError);
    }
  });

  it("lets ordinary fields through", () => {
    for (const name of ["host", "events", "endpoint_id", "from", "to", "keyboard", "monkey_count", "via", "other_sessions_ended", "id", "name", "prefix", "scopes"]) {
      expect(isSecretName(name), name).toBe(false);
    }
    expect(() => assertNoSecrets({ host: "example.com", events: ["bulk.completed"], before: 2 })).not.toThrow();
  });

  it("refuses a value shaped like a webhook secret or an API key wherever it is", () => {
    expect(() => assertNoSecrets({ host: "whsec_c2VjcmV0" })).toThrow("changes.host");
    expect(() => assertNoSecrets({ list: ["ok", "3f1c0a9e5b7d2c4f6a8b0d1e3f5a7c9b1d3e5f70"] })).toThrow("changes.list[1]");
  });

  it("no action of the catalogue names a field the guard refuses", () => {
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
