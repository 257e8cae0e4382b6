import type { Alerts } from "../../lib/alerts/alerts.ts";
import type { PrismaClient } from "../../lib/db/prisma.ts";
import { isUniqueViolation } from "../../lib/db/unique-violation.ts";
import type { NetworkHealthEntry } from "../networks/health.ts";
import { log } from "../../lib/log/log.ts";

/** A network's change of state is told once it has lasted this long (a blip is not an incident). */
export const INCIDENT_AFTER_MS = 10 * 60_000;
const POLL_MS = 30_000;

type Entry = Pick<NetworkHealthEntry, "network" | "enabled" | "state" | "retry_at">;
type Incident = { network: string; state: string; since: Date; reason: string | null; reported: boolean; degradedSent: boolean };

const WHY: Record<Exclude<NetworkHealthEntry["state"], "ok" | "disabled">, string> = {
  throttled: "The network asked sharecount to slow down.",
  unavailable: "The network's answers are failing.",
  credentials_rejected: "The network rejects the configured credentials.",
  budget_exhausted: "The configured call budget is used up.",
};

function reasonOf(entry: Entry): string | null {
  if (entry.state === "ok" || entry.state === "disabled") return null;
  return entry.retry_at ? `${WHY[entry.state]} Asked again at ${entry.retry_at}.` : WHY[entry.state];
}

/**
 * network.degraded and network.recovered: polls the networks' health where the workers run, and keeps each
 * network's state in the network_incident table. A network out of `ok` for 10 minutes is degraded; back in
 * `ok` for 10 minutes after that, recovered. Every row change is a compare-and-set, so of several processes
 * only the one that moved the row tells the accounts that opted in (network.* in their mail settings, or a
 * webhook endpoint listening for it). Networks turned off in the configuration are left out.
 */
export class NetworkAlerts {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly alerts: Alerts,
    private readonly health: () => Promise<Entry[]>,
    private readonly now: () => number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.poll(), POLL_MS).unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private poll(): Promise<void> {
    this.running ??= this.check(this.now())
      .catch((error: unknown) => log.error({ event: "network_alerts_failed", err: error }, "network alerts: check failed, will retry"))
      .finally(() => (this.running = null));
    return this.running;
  }

  /** Reads the health report once and moves each network's row (and tells the accounts) as due at `now`. */
  async check(now: number): Promise<void> {
    const entries = (await this.health()).filter((entry) => entry.enabled);
    const rows = new Map((await this.prisma.networkIncident.findMany()).map((row) => [row.network, row]));
    for (const entry of entries) await this.follow(rows.get(entry.network) ?? null, entry, now);
  }

  private async follow(row: Incident | null, entry: Entry, now: number): Promise<void> {
    const reason = reasonOf(entry);
    if (!row) {
      try {
        // A network first seen ok has nothing to tell.
        await this.prisma.networkIncident.create({ data: { network: entry.network, state: entry.state, since: new Date(now), reason, reported: entry.state === "ok" } });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      return;
    }
    const match = { network: row.network, state: row.state, since: row.since, reported: row.reported };
    const wasOk = row.state === "ok";
    const isOk = entry.state === "ok";
    if (wasOk !== isOk) {
      // In or out of ok: a new period starts, to be told once it lasts.
      await this.prisma.networkIncident.updateMany({ where: match, data: { state: entry.state, since: new Date(now), reason, reported: false } });
      return;
    }
    if (row.state !== entry.state || row.reason !== reason) {
      // Another way out of ok (throttled, then failing): the same incident, now said differently.
      await this.prisma.networkIncident.updateMany({ where: match, data: { state: entry.state, reason } });
      return;
    }
    if (row.reported || now - row.since.getTime() < INCIDENT_AFTER_MS) return;
    // Recovered is told only after a degraded was; degraded only once until then (a flap inside an incident).
    const tell = isOk ? row.degradedSent : !row.degradedSent;
    const moved = await this.prisma.networkIncident.updateMany({ where: match, data: { reported: true, degradedSent: !isOk } });
    if (moved.count === 1 && tell) await this.tell(isOk ? "network.recovered" : "network.degraded", row, now);
  }

  private async tell(type: "network.degraded" | "network.recovered", row: Incident, now: number): Promise<void> {
    const data = { network: row.network, state: row.state, since: row.since.toISOString(), reason: row.reason };
    const onceKey = `${type}:${row.network}:${data.since}`;
    for (const accountId of await this.optedIn(type)) await this.alerts.emit({ accountId, type, data, onceKey }, now);
  }

  /** Accounts that asked to hear of `type`: by mail, or at a webhook endpoint. */
  private async optedIn(type: string): Promise<Set<string>> {
    const [mailed, hooked] = await Promise.all([
      this.prisma.alertSettings.findMany({ where: { emailEvents: { contains: type } }, select: { accountId: true, emailEvents: true } }),
      this.prisma.webhookEndpoint.findMany({ where: { enabled: true, events: { contains: type } }, select: { accountId: true, events: true } }),
    ]);
    const listed = (list: string | null) => (list ?? "").split(",").includes(type);
    return new Set([...mailed.filter((s) => listed(s.emailEvents)), ...hooked.filter((e) => listed(e.events))].map((row) => row.accountId));
  }
}
