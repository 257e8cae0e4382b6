import type { PrismaClient } from "../../lib/db/prisma.ts";
import { OutboxStore } from "../../lib/mail/outbox-store.ts";
import type { GaugeReadings } from "../../lib/metrics/metrics.ts";
import type { Store } from "../../lib/store/store.ts";
import type { NetworkHealthEntry } from "../networks/health.ts";

/** Where the gauges of /metrics read from, in a process that runs the workers: one query each, per scrape. */
export function gaugeReadings(deps: {
  store: Store;
  prisma: PrismaClient;
  networkHealth: () => Promise<NetworkHealthEntry[]>;
  now: () => number;
}): GaugeReadings {
  const outbox = new OutboxStore(deps.prisma);
  return {
    bulkQueueDepth: () => deps.store.bulk.waitingUrls(),
    trackedUrls: () => deps.store.tracked.scheduledUrls(),
    async refreshLagSeconds() {
      const now = deps.now();
      const { oldestDueAt } = await deps.store.tracked.backlog(null, now);
      return oldestDueAt === null ? 0 : Math.max(0, (now - oldestDueAt) / 1000);
    },
    networkStates: async () => (await deps.networkHealth()).map(({ network, state }) => ({ network, state })),
    outboxPending: () => outbox.pending(),
  };
}
