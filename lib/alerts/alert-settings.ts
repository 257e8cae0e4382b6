import type { PrismaClient } from "../db/prisma.ts";
import { EVENT_TYPES, MAILABLE_TYPES, type EventType } from "./alert-types.ts";

export interface AlertPreferences {
  /** The event types mailed to the account's verified address. */
  email: EventType[];
  /** A weekly digest mail. */
  digest: boolean;
  /** A spike is a growth of at least this many shares and reactions… */
  spikeMinIncrease: number;
  /** …and at least this many times the total 24 hours before. */
  spikeRatio: number;
}

export const DEFAULT_PREFERENCES: AlertPreferences = {
  email: MAILABLE_TYPES.filter((type) => EVENT_TYPES[type].mailedByDefault),
  digest: true,
  spikeMinIncrease: 100,
  spikeRatio: 2,
};

export const SPIKE_LIMITS = { minIncrease: { min: 1, max: 1_000_000_000 }, ratio: { min: 1.1, max: 1000 } } as const;

type Row = { emailEvents: string | null; digest: boolean; spikeMinIncrease: number; spikeRatio: number };
type SettingsReader = Pick<PrismaClient, "alertSettings">;

export function preferencesOf(row: Row | null): AlertPreferences {
  if (!row) return DEFAULT_PREFERENCES;
  const email = row.emailEvents === null ? DEFAULT_PREFERENCES.email : MAILABLE_TYPES.filter((type) => row.emailEvents!.split(",").includes(type));
  return { email, digest: row.digest, spikeMinIncrease: row.spikeMinIncrease, spikeRatio: row.spikeRatio };
}

/** The alert_settings table's one owner: what an account is mailed about, and its spike thresholds. */
export class AlertSettings {
  constructor(private readonly prisma: PrismaClient) {}

  async of(accountId: string, db: SettingsReader = this.prisma): Promise<AlertPreferences> {
    return preferencesOf(await db.alertSettings.findUnique({ where: { accountId } }));
  }

  /** The spike thresholds of every account that changed them (the rest have the defaults). */
  async spikeThresholds(): Promise<Map<string, { minIncrease: number; ratio: number }>> {
    // Raw: read every few minutes by every API process, where a query through the engine costs a millisecond.
    const { spikeMinIncrease, spikeRatio } = DEFAULT_PREFERENCES;
    const rows = await this.prisma.$queryRaw<{ account_id: string; spike_min_increase: number; spike_ratio: number }[]>`
      SELECT account_id, spike_min_increase, spike_ratio FROM alert_settings
      WHERE spike_min_increase <> ${spikeMinIncrease} OR spike_ratio <> ${spikeRatio}`;
    return new Map(rows.map((row) => [row.account_id, { minIncrease: Number(row.spike_min_increase), ratio: Number(row.spike_ratio) }]));
  }

  /** Changes what `change` names; the rest stays. */
  async update(accountId: string, change: Partial<AlertPreferences>): Promise<AlertPreferences> {
    const data = {
      ...(change.email ? { emailEvents: MAILABLE_TYPES.filter((type) => change.email!.includes(type)).join(",") } : {}),
      ...(change.digest !== undefined ? { digest: change.digest } : {}),
      ...(change.spikeMinIncrease !== undefined ? { spikeMinIncrease: change.spikeMinIncrease } : {}),
      ...(change.spikeRatio !== undefined ? { spikeRatio: change.spikeRatio } : {}),
    };
    const row = await this.prisma.alertSettings.upsert({ where: { accountId }, create: { accountId, ...data }, update: data });
    return preferencesOf(row);
  }

  /**
   * Takes the account's digest of `week` (its Monday): true for the one caller that moved the row (of every
   * process), so one digest is queued, in the caller's transaction. False when the digest is off or taken.
   */
  async claimDigest(db: SettingsReader, accountId: string, week: string): Promise<boolean> {
    const taken = await db.alertSettings.updateMany({
      where: { accountId, digest: true, OR: [{ digestWeek: null }, { digestWeek: { not: week } }] },
      data: { digestWeek: week },
    });
    if (taken.count === 1) return true;
    if (await db.alertSettings.findUnique({ where: { accountId }, select: { accountId: true } })) return false;
    // No settings yet (the defaults: digest on). Of two creates, the second fails its transaction.
    await db.alertSettings.create({ data: { accountId, digestWeek: week } });
    return true;
  }

  /** Turns one mail off (the one-click unsubscribe link): an event type, or the digest. */
  async unsubscribe(accountId: string, what: EventType | "digest"): Promise<void> {
    if (what === "digest") {
      await this.update(accountId, { digest: false });
      return;
    }
    const current = await this.of(accountId);
    await this.update(accountId, { email: current.email.filter((type) => type !== what) });
  }
}
