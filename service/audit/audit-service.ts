import type { IncomingMessage } from "node:http";
import { keyActor, MAX_USER_AGENT, type AuditSource } from "../../lib/audit/actor.ts";
import { AuditPruner } from "../../lib/audit/audit-pruner.ts";
import { AuditStore } from "../../lib/audit/audit-store.ts";
import { ACTOR_HEADER, verifyActor } from "../../lib/audit/dashboard-actor.ts";
import type { PrismaClient } from "../../lib/db/prisma.ts";
import type { Env } from "../../lib/env.ts";
import { clientAddressResolver } from "../../lib/security/client-ip.ts";

/** What the API's routes need of the audit log: reading it, and telling who made a request's change. */
export interface AuditDeps {
  store: AuditStore;
  /** Who made this request's change, from where, and now: the dashboard's signed user, else the key. */
  sourceOf: (req: IncomingMessage, account: { id: string; keyId: string | null }) => AuditSource;
}

/** The audit log of one API process, and the pruner where this process runs workers. */
export function openAudit(env: Env, prisma: PrismaClient, secret: Buffer, options: { worker: boolean; now: () => number }) {
  const store = new AuditStore(prisma);
  const clientAddress = clientAddressResolver(env.TRUSTED_PROXIES);
  const deps: AuditDeps = {
    store,
    sourceOf(req, account) {
      const at = options.now();
      const header = req.headers[ACTOR_HEADER];
      const signed = verifyActor(secret, typeof header === "string" ? header : undefined, account.id, at);
      if (signed) return { ...signed, at };
      const userAgent = req.headers["user-agent"]?.slice(0, MAX_USER_AGENT) ?? null;
      return { actor: keyActor({ id: account.keyId }), client: { address: clientAddress(req), userAgent }, at };
    },
  };
  const pruner = options.worker ? new AuditPruner({ store, days: env.AUDIT_LOG_DAYS, now: options.now }) : null;
  return { deps, pruner };
}
