import { pendingMigrations } from "../../lib/db/migrate.ts";

/** One thing a process needs to serve (its database, Redis, the schema): resolves when it is there. */
export type ReadinessCheck = () => Promise<void>;

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, "up" | "down">;
}

/** A probe is answered in time even when a backing service hangs: a check still pending then counts as down. */
const CHECK_TIMEOUT_MS = 2_000;

/** Runs every check at once; ready only when all of them pass. A failure's reason stays in the process. */
export async function checkReadiness(checks: Record<string, ReadinessCheck>): Promise<ReadinessReport> {
  const names = Object.keys(checks);
  const results = await Promise.all(names.map((name) => withinDeadline(checks[name]!)));
  const report: ReadinessReport = { ready: results.every(Boolean), checks: {} };
  names.forEach((name, i) => (report.checks[name] = results[i] ? "up" : "down"));
  return report;
}

async function withinDeadline(check: ReadinessCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([check().then(() => true, () => false), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Passes once the database holds every migration this process was built with. Applied migrations are never
 * taken back (a newer release only adds some), so once it passes it is not asked again.
 */
export function migrationsInPlace(databaseUrl: string): ReadinessCheck {
  let inPlace = false;
  return async () => {
    if (inPlace) return;
    const pending = await pendingMigrations(databaseUrl);
    if (pending.length > 0) throw new Error(`migrations pending: ${pending.join(", ")}`);
    inPlace = true;
  };
}
