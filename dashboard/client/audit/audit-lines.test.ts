import { describe, expect, it } from "vitest";
import type { AuditEventAnswer } from "./audit-answers.ts";
import { auditLine, whitelistDetail } from "./audit-lines.ts";

const SELF = "acc-1";
const base = { id: "ae_1", time: "2026-11-27T08:00:00.000Z", ip: null, user_agent: null };
const you = { type: "user" as const, id: SELF, label: "me@example.com" };
const event = (change: Omit<AuditEventAnswer, keyof typeof base | "actor">, actor: AuditEventAnswer["actor"] = you) => ({ ...base, actor, ...change }) as AuditEventAnswer;

describe("audit lines", () => {
  it("says what changed, with the actor as the subject", () => {
    const whitelist = event({
      action: "whitelist.changed",
      changes: { before: 3, after: 4, added: ["a.com", "b.com"], removed: ["c.com"], added_count: 2, removed_count: 1, enabled_before: false, enabled: false },
    });
    expect(auditLine(whitelist, SELF)).toBe("You changed the whitelist: +2, −1");
    expect(whitelistDetail(whitelist)).toBe("added a.com, b.com; removed c.com");
    const enforced = event({
      action: "whitelist.changed",
      changes: { before: 1, after: 1, added: [], removed: [], added_count: 0, removed_count: 0, enabled_before: false, enabled: true },
    });
    expect(auditLine(enforced, SELF)).toBe("You changed the whitelist: enforcement turned on");
    const many = event({
      action: "whitelist.changed",
      changes: { before: 0, after: 25, added: ["a.com"], removed: [], added_count: 25, removed_count: 0, enabled_before: true, enabled: true },
    });
    expect(whitelistDetail(many)).toBe("added a.com and 24 more");

    expect(auditLine(event({ action: "plan.changed", changes: { from: "free", to: "plus" } }, { type: "system", id: null, label: "admin command line" }), SELF)).toBe(
      "The administrator (command line) changed the plan from free to plus",
    );
    expect(auditLine(event({ action: "webhook.updated", changes: { endpoint_id: "we_1", host: "h.example", events: [], fields: ["enabled"], enabled: false } }, { type: "key", id: null, label: "API key" }), SELF)).toBe(
      "An API key turned off the webhook endpoint on h.example",
    );
    expect(auditLine(event({ action: "sign_in", changes: { method: "github" } }), SELF)).toBe("You signed in with GitHub");
    expect(auditLine(event({ action: "sign_in_failed", changes: { method: "password", reason: "wrong_password" } }, { type: "anonymous", id: null, label: null }), SELF)).toBe(
      "Someone tried to sign in with a wrong password",
    );
    expect(auditLine(event({ action: "password.changed", changes: { via: "settings", other_sessions_ended: 2 } }, { type: "user", id: "acc-2", label: "teammate@example.com" }), SELF)).toBe(
      "teammate@example.com changed the password; 2 other sessions were signed out",
    );
  });
});
