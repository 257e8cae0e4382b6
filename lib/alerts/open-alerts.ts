import type { PrismaClient } from "../db/prisma.ts";
import { KeyVault } from "../security/secrets.ts";
import { DeliveryStore } from "../webhooks/delivery-store.ts";
import { EndpointStore } from "../webhooks/endpoint-store.ts";
import { WebhookChannel } from "../webhooks/webhook-channel.ts";
import { AlertSettings } from "./alert-settings.ts";
import { Alerts } from "./alerts.ts";

/** The vault purpose webhook secrets are sealed under (see lib/security/secrets.ts). */
export const WEBHOOK_VAULT_PURPOSE = "webhook secret";

/** Everything that records events and hands them to their channels; one per process. */
export interface AlertKit {
  alerts: Alerts;
  settings: AlertSettings;
  endpoints: EndpointStore;
  deliveries: DeliveryStore;
}

export function openAlerts(prisma: PrismaClient, secret: Buffer): AlertKit {
  const endpoints = new EndpointStore(prisma, new KeyVault(secret, WEBHOOK_VAULT_PURPOSE));
  const deliveries = new DeliveryStore(prisma);
  const alerts = new Alerts(prisma, [new WebhookChannel(endpoints, deliveries)]);
  return { alerts, settings: new AlertSettings(prisma), endpoints, deliveries };
}
