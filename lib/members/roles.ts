import { z } from "zod";
import { ALL_SCOPES, type Scope } from "../keys/scopes.ts";

/** Most powerful first: each role may do everything the roles after it may. */
export const ROLES = ["owner", "admin", "developer", "viewer"] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES);

/**
 * What a dashboard route or action needs, named for what it touches. Each needs a least role; the one check
 * (`allows`) is used by every route and page on the server, and by the pages only to hide what would be refused.
 */
export const NEEDS = {
  /** Anything a member reads: the overview, usage, lists, logs. */
  read: "viewer",
  /** The user's own sign-in, whatever account they work in: their sessions, password and address. */
  self: "viewer",
  /** What spends quota or changes the work: lookups, tracked URLs, bulk jobs, imports, keys. */
  work: "developer",
  keys: "developer",
  /** The account's settings: whitelist, webhooks, alerts, networks, members and invites. */
  settings: "admin",
  members: "admin",
  /** Exporting everything the account holds. */
  export: "admin",
  /** Deleting the account, and giving or taking the owner role. */
  ownership: "owner",
} as const satisfies Record<string, Role>;
export type Need = keyof typeof NEEDS;

const rank = (role: Role): number => ROLES.length - ROLES.indexOf(role);

export function allows(role: Role, need: Need): boolean {
  return rank(role) >= rank(NEEDS[need]);
}

export const ROLE_LABELS: Record<Role, string> = { owner: "Owner", admin: "Admin", developer: "Developer", viewer: "Viewer" };

/** What each role may do, to follow a colon. */
export const ROLE_SUMMARIES: Record<Role, string> = {
  owner: "everything, including deleting the account and giving the owner role",
  admin: "members, whitelist, webhooks, alerts, settings and keys",
  developer: "keys, lookups, tracked URLs and bulk jobs",
  viewer: "reads everything, changes nothing",
};

/** The most members (and open invites) one account may have. */
export const MAX_MEMBERS = 50;

/**
 * The scopes a member may put on a key (make, roll, revoke or reveal one): a key must not carry more than its
 * maker's role, or a developer could reach webhooks through the API with a key of their own.
 */
export function grantableScopes(role: Role): readonly Scope[] {
  return allows(role, "settings") ? ALL_SCOPES : ALL_SCOPES.filter((scope) => scope !== "account:write");
}
