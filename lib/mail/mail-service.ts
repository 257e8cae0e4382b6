import type { PrismaClient } from "../db/prisma.ts";
import type { Env } from "../env.ts";
import { mailSettings } from "./mail-env.ts";
import { MailWorker } from "./mail-worker.ts";
import { openOutbox } from "./outbox.ts";
import { OutboxStore } from "./outbox-store.ts";
import { createMailTransport } from "./transport.ts";

/** The worker that sends it, wherever the bulk worker runs (`npm start`, `start:worker`). */
export function mailWorkerFor(env: Env, prisma: PrismaClient, secret: Buffer, now: () => number): MailWorker {
  const settings = mailSettings(env);
  const transport = createMailTransport(settings);
  return new MailWorker({ store: new OutboxStore(prisma), outbox: openOutbox(prisma, secret), transport, origin: settings.linkOrigin, now });
}
