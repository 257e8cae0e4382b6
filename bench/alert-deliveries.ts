/**
 * Webhook delivery throughput: one DeliveryWorker (the service's defaults: 16 POSTs in flight, 4 per
 * endpoint) on a migrated SQLite file delivers N events to a loopback receiver answering 204 at once. The
 * events are queued first (not timed); the figure is deliveries recorded per second, from the worker's start
 * until the last is settled. Goal: at least 500 a second. `npx tsx bench/alert-deliveries.ts` prints it;
 * BENCH_DELIVERIES and BENCH_ENDPOINTS change the size.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { EmailVerification } from "../lib/accounts/email-verification.ts";
import { openAlerts } from "../lib/alerts/open-alerts.ts";
import { migrate } from "../lib/db/migrate.ts";
import { createPrisma } from "../lib/db/prisma.ts";
import { openOutbox } from "../lib/mail/outbox.ts";
import { DeliveryWorker } from "../lib/webhooks/delivery-worker.ts";
import { EndpointHealth } from "../lib/webhooks/endpoint-health.ts";
import { startWebhookReceiver } from "../test/support/webhook-receiver.ts";
import { BULK_DONE } from "../test/support/webhooks.ts";
import { envInt, log, runMain, sleep, tempDir } from "./support.ts";

export const DELIVERIES_PER_SECOND_GOAL = 500;

export interface DeliveryFigures {
  deliveriesPerSecond: number;
  deliveries: number;
  endpoints: number;
  seconds: number;
  /** This process's CPU time per delivery (the receiver's share included): the figure a busy machine does not skew. */
  cpuMsPerDelivery: number;
}

export async function measureDeliveries(options: { deliveries?: number; endpoints?: number } = {}): Promise<DeliveryFigures> {
  const endpoints = options.endpoints ?? envInt("BENCH_ENDPOINTS", 10);
  const perEndpoint = Math.ceil((options.deliveries ?? envInt("BENCH_DELIVERIES", 3_000)) / endpoints);
  const deliveries = perEndpoint * endpoints;
  const url = `file:${path.join(tempDir("bench-deliveries"), "bench.db")}`;
  await migrate(url);
  const prisma = createPrisma(url);
  // As the service leaves the file: its store opens it in WAL mode (lib/store/sqlite/open.ts).
  await prisma.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  const receiver = await startWebhookReceiver();
  const secret = Buffer.alloc(32, 7);
  const kit = openAlerts(prisma, secret, "http://127.0.0.1");
  try {
    log(`queuing ${deliveries} deliveries to ${endpoints} endpoints`);
    const accounts = Array.from({ length: endpoints }, (_, e) => `bench-${e}`);
    for (const [e, accountId] of accounts.entries()) {
      await prisma.account.create({ data: { id: accountId, email: `${accountId}@example.com`, planName: "free" } });
      await kit.endpoints.create(accountId, { url: receiver.url(`/hook/${e}`), events: ["bulk.completed"], format: "standard", description: null }, Date.now());
    }
    // The accounts' events arrive interleaved, as they would over time.
    for (let i = 0; i < perEndpoint; i++) {
      for (const accountId of accounts) await kit.alerts.emit({ accountId, type: "bulk.completed", data: BULK_DONE }, Date.now());
    }

    const outbox = openOutbox(prisma, secret);
    const verification = new EmailVerification(prisma, outbox, "http://localhost:3000");
    const health = new EndpointHealth({ prisma, endpoints: kit.endpoints, deliveries: kit.deliveries, outbox, addressOf: (id) => verification.verifiedAddressOf(id), origin: "http://localhost:3000" });
    const worker = new DeliveryWorker({ events: kit.alerts.events, endpoints: kit.endpoints, deliveries: kit.deliveries, health, allowPrivateHosts: true, now: Date.now });
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    worker.start();
    while ((await prisma.webhookDelivery.count({ where: { status: "succeeded" } })) < deliveries) await sleep(50);
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    await worker.stop();
    if (receiver.requests.length !== deliveries) throw new Error(`the receiver got ${receiver.requests.length} POSTs for ${deliveries} deliveries`);
    return { deliveriesPerSecond: Math.round(deliveries / seconds), deliveries, endpoints, seconds: Number(seconds.toFixed(2)), cpuMsPerDelivery: Number(((cpu.user + cpu.system) / 1000 / deliveries).toFixed(2)) };
  } finally {
    await receiver.close();
    await prisma.$disconnect();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runMain(async () => {
    const figures = await measureDeliveries();
    const pass = figures.deliveriesPerSecond >= DELIVERIES_PER_SECOND_GOAL;
    console.log(`[figure] webhook deliveries: ${figures.deliveriesPerSecond}/s (${figures.deliveries} to ${figures.endpoints} endpoints in ${figures.seconds} s, ${figures.cpuMsPerDelivery} ms CPU each)  target ≥ ${DELIVERIES_PER_SECOND_GOAL}/s  ${pass ? "PASS" : "MISS"}`);
    return pass ? 0 : 1;
  });
}
