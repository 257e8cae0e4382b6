import type { PrismaClient } from "../db/prisma.ts";
import { openOutbox } from "../mail/outbox.ts";
import { KeyVault } from "../security/secrets.ts";
import { DeliveryStore } from "../webhooks/delivery-store.ts";
import { EndpointStore } from "../webhooks/endpoint-store.ts";
import { WebhookChannel } from "../webhooks/webhook-channel.ts";
import { AlertSettings } from "./alert-settings.ts";
import { Alerts } from "./alerts.ts";
import { MailChannel } from "./mail-channel.ts";
import { UnsubscribeTokens } from "./unsubscribe-token.ts";

/** The vault purpose webhook secrets are sealed under (see lib/security/secrets.ts). */
export const WEBHOOK_VAULT_PURPOSE = "webhook secret";

/** Everything that records events and hands them to their channels; one per process. */
export interface AlertKit {
  alerts: Alerts;
  settings: AlertSettings;
  endpoints: EndpointStore;
  deliveries: DeliveryStore;
  /** The links that turn alert mail and the digest off. */
  unsubscribe: UnsubscribeTokens;
}

/** `linkOrigin`: where links in mail point (the dashboard's public address, see lib/mail/mail-env.ts). */
export function openAlerts(prisma: PrismaClient, secret: Buffer, linkOrigin: string): AlertKit {
  const endpoints = new EndpointStore(prisma, new KeyVault(secret, WEBHOOK_VAULT_PURPOSE));
  const deliveries = new DeliveryStore(prisma);
  const unsubscribe = new UnsubscribeTokens(secret);
  const alerts = new Alerts(prisma, [new WebhookChannel(endpoints, deliveries), new MailChannel(openOutbox(prisma, secret), unsubscribe, linkOrigin)]);
  return { alerts, settings: new AlertSettings(prisma), endpoints, deliveries, unsubscribe };
}
