import type { Env } from "../../lib/env.ts";
import type { PrismaClient } from "../../lib/db/prisma.ts";
import { openAlerts, type AlertKit } from "../../lib/alerts/open-alerts.ts";
import { mailSettings } from "../../lib/mail/mail-env.ts";
import { openOutbox } from "../../lib/mail/outbox.ts";
import type { Store } from "../../lib/store/store.ts";
import type { NetworkHealthEntry } from "../networks/health.ts";
import { BulkAlerts } from "./bulk-alerts.ts";
import { Digests } from "./digest.ts";
import { NetworkAlerts } from "./network-alerts.ts";
import { QuotaAlerts } from "./quota-alerts.ts";
import { TrackedAlerts } from "./tracked-alerts.ts";

/** What emits events: the quota and tracked URL rules in every process; bulk, network and digest ones where the workers run. */
export interface Alerting {
  kit: AlertKit;
  quota: QuotaAlerts;
  tracked: TrackedAlerts;
  bulk: BulkAlerts | null;
  networks: NetworkAlerts | null;
  digests: Digests | null;
  /** Starts the workers' pollers, with the networks' health report (built later than the rules). */
  start(health: () => Promise<NetworkHealthEntry[]>): void;
  /** Stops the pollers and waits for every emission under way. */
  stop(): Promise<void>;
}

export function openAlerting(env: Env, prisma: PrismaClient, secret: Buffer, store: Pick<Store, "history" | "tracked">, options: { worker: boolean; now: () => number }): Alerting {
  const { now, worker } = options;
  const origin = mailSettings(env).linkOrigin;
  const kit = openAlerts(prisma, secret, origin);
  const alerting: Alerting = {
    kit,
    quota: new QuotaAlerts(kit.alerts, now),
    tracked: new TrackedAlerts({ tracked: store.tracked, history: store.history, settings: kit.settings, alerts: kit.alerts, timeZone: env.QUOTA_TIMEZONE }),
    bulk: worker ? new BulkAlerts(prisma, kit.alerts, now) : null,
    networks: null,
    digests: worker
      ? new Digests({ prisma, settings: kit.settings, outbox: openOutbox(prisma, secret), unsubscribe: kit.unsubscribe, origin, timeZone: env.QUOTA_TIMEZONE, now })
      : null,
    start(health) {
      if (worker) alerting.networks = new NetworkAlerts(prisma, kit.alerts, health, now);
      alerting.bulk?.start();
      alerting.networks?.start();
      alerting.digests?.start();
    },
    async stop() {
      await Promise.all([alerting.bulk?.stop(), alerting.networks?.stop(), alerting.digests?.stop()]);
      await Promise.all([alerting.quota.settled(), alerting.tracked.settled()]);
    },
  };
  return alerting;
}
