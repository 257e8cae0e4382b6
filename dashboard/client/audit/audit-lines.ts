import type { AuditEventAnswer } from "./audit-answers.ts";

/** One audit event as a line people read: "You changed the whitelist: +2, −1". Runs in the browser. */

const METHODS = { password: "a password", github: "GitHub", google: "Google", passkey: "a passkey" } as const;
const FIELDS = { url: "URL", events: "events", enabled: "on/off", description: "description" } as const;

/** Who, as the sentence's subject: "You" for the signed-in user's own changes. */
export function actorName(actor: AuditEventAnswer["actor"], selfId: string): string {
  switch (actor.type) {
    case "user":
      return actor.id === selfId ? "You" : (actor.label ?? "A member");
    case "key":
      return actor.label && actor.label !== "API key" ? `The API key “${actor.label}”` : "An API key";
    case "system":
      return "The administrator (command line)";
    case "anonymous":
      return "Someone";
  }
}

const list = (items: readonly string[], more: number) => `${items.join(", ")}${more > items.length ? ` and ${more - items.length} more` : ""}`;

/** What happened, after the actor's name. */
function predicate(event: AuditEventAnswer): string {
  switch (event.action) {
    case "whitelist.changed": {
      const c = event.changes;
      const parts = [c.added_count > 0 ? `+${c.added_count}` : null, c.removed_count > 0 ? `−${c.removed_count}` : null].filter(Boolean);
      const enforcement = c.enabled === c.enabled_before ? "" : `${parts.length > 0 ? "; " : ": "}enforcement turned ${c.enabled ? "on" : "off"}`;
      return `changed the whitelist${parts.length > 0 ? `: ${parts.join(", ")}` : ""}${enforcement}`;
    }
    case "plan.changed":
      return `changed the plan from ${event.changes.from} to ${event.changes.to}`;
    case "webhook.created":
      return `added a webhook endpoint on ${event.changes.host} (${event.changes.events.join(", ")})`;
    case "webhook.updated": {
      const c = event.changes;
      if (c.fields.length === 1 && c.fields[0] === "enabled") return `turned ${c.enabled ? "on" : "off"} the webhook endpoint on ${c.host}`;
      const moved = c.host_before ? ` (moved from ${c.host_before})` : "";
      return `changed the webhook endpoint on ${c.host}: ${c.fields.map((f) => FIELDS[f]).join(", ")}${moved}`;
    }
    case "webhook.deleted":
      return `deleted the webhook endpoint on ${event.changes.host}`;
    case "password.changed": {
      const c = event.changes;
      const how = c.via === "removed" ? "removed the password" : c.via === "reset_link" ? "set a new password with a reset link" : "changed the password";
      return `${how}${c.other_sessions_ended > 0 ? `; ${c.other_sessions_ended} other session${c.other_sessions_ended === 1 ? " was" : "s were"} signed out` : ""}`;
    }
    case "email.changed":
      return `changed the email address from ${event.changes.from} to ${event.changes.to}`;
    case "sign_in":
      return `signed in with ${METHODS[event.changes.method]}`;
    case "sign_in_failed":
      return event.changes.reason === "no_password" ? "tried to sign in with a password, which this account does not have" : "tried to sign in with a wrong password";
    case "key.created":
      return `created the API key “${event.changes.name}”`;
    case "key.rolled":
      return `rolled the API key “${event.changes.name}”`;
    case "key.revoked":
      return `revoked the API key “${event.changes.name}”`;
    case "member.invited":
      return `invited ${event.changes.email} as ${event.changes.role}`;
    case "member.joined":
      return `joined as ${event.changes.role}`;
    case "member.removed":
      return `removed ${event.changes.email}`;
    case "member.role_changed":
      return `made ${event.changes.email} ${event.changes.to} (was ${event.changes.from})`;
  }
}

export function auditLine(event: AuditEventAnswer, selfId: string): string {
  return `${actorName(event.actor, selfId)} ${predicate(event)}`;
}

/** The entries a whitelist change added and removed, for the line's details. */
export function whitelistDetail(event: AuditEventAnswer): string | null {
  if (event.action !== "whitelist.changed") return null;
  const c = event.changes;
  const parts = [c.added_count > 0 ? `added ${list(c.added, c.added_count)}` : null, c.removed_count > 0 ? `removed ${list(c.removed, c.removed_count)}` : null];
  return parts.filter(Boolean).join("; ") || null;
}
