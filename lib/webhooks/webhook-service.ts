import { EmailVerification } from "../accounts/email-verification.ts";
import type { AlertKit } from "../alerts/open-alerts.ts";
import type { PrismaClient } from "../db/prisma.ts";
import type { Env } from "../env.ts";
import { mailSettings } from "../mail/mail-env.ts";
import { openOutbox } from "../mail/outbox.ts";
import { DeliveryWorker } from "./delivery-worker.ts";
import { EndpointHealth } from "./endpoint-health.ts";

/** The worker that delivers webhooks, wherever the mail worker runs (`npm start`, `start:worker`). */
export function deliveryWorkerFor(env: Env, prisma: PrismaClient, secret: Buffer, kit: AlertKit, now: () => number): DeliveryWorker {
  const origin = mailSettings(env).linkOrigin;
  const outbox = openOutbox(prisma, secret);
  const verification = new EmailVerification(prisma, outbox, origin);
  const health = new EndpointHealth({
    prisma,
    endpoints: kit.endpoints,
    deliveries: kit.deliveries,
    outbox,
    addressOf: (accountId) => verification.verifiedAddressOf(accountId),
    origin,
  });
  return new DeliveryWorker({
    events: kit.alerts.events,
    endpoints: kit.endpoints,
    deliveries: kit.deliveries,
    health,
    allowPrivateHosts: env.WEBHOOK_ALLOW_PRIVATE_HOSTS,
    retentionDays: env.EVENT_RETENTION_DAYS,
    now,
  });
}
