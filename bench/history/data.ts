/**
 * The seeded data: one formula for both databases, so the summaries agree with the points. Each URL's
 * shape and URL have an SQL twin here for the set-based PostgreSQL seed; the two must stay in step.
 */
import type { PrismaClient } from "../../lib/db/prisma.ts";
import { HOUR_MS, hourOf } from "../../lib/store/observation-rows.ts";

export const DAYS = 365;
export const DAY_MS = 24 * HOUR_MS;
/** The account that tracks every seeded URL. */
export const ACCOUNT_ID = "bench-history";

/** Creates that account on `plan`. */
export async function createAccount(prisma: PrismaClient, plan: string): Promise<void> {
  const id = ACCOUNT_ID;
  await prisma.account.create({ data: { id, email: `${id}@example.com`, planName: plan } });
}

/** A deterministic number in [0, 1) for URL `id` (multiplicative hashing). */
const unitHash = (id: number, k: number, m: number) => ((id * k) % m) / m;

/** Heavy-tailed final counts (most URLs get little, a few get a lot) and how early in the year they came. */
export function urlShape(id: number) {
  return {
    facebook: Math.floor(Math.exp(unitHash(id, 2654435761, 1000003) * 12)),
    pinterest: Math.floor(Math.exp(unitHash(id, 40503, 999983) * 9)),
    shape: 0.2 + 0.8 * unitHash(id, 69069, 1000033),
  };
}

/** The same in SQL, from `id`. */
export const URL_SHAPE_SQL = `
  floor(exp(((id::bigint * 2654435761) % 1000003)::float8 / 1000003 * 12))::bigint AS facebook,
  floor(exp(((id::bigint * 40503) % 999983)::float8 / 999983 * 9))::bigint AS pinterest,
  0.2 + 0.8 * ((id::bigint * 69069) % 1000033)::float8 / 1000033 AS shape`;

/** A count reached by day `day` (0..364) of the year. */
export const countOn = (final: number, shape: number, day: number) => Math.floor(final * Math.pow((day + 1) / DAYS, shape));

/** Facebook's breakdown of a total, in OBSERVATION_COLUMNS order (total, comment, reaction, share, plugin). */
export function facebookColumns(total: number): number[] {
  const share = Math.floor(total / 2);
  const reaction = Math.floor((total * 35) / 100);
  return [total, total - share - reaction, reaction, share, Math.floor(total / 100)];
}

/** The stored `latest` JSON, as summaryColumns writes it. */
export function latestJson(facebook: number, pinterest: number): string {
  const [total_count, comment_count, reaction_count, share_count, comment_plugin_count] = facebookColumns(facebook);
  return JSON.stringify({ Facebook: { total_count, comment_count, reaction_count, share_count, comment_plugin_count }, Pinterest: pinterest });
}

/** Where the year of points sits: the last one an hour ago, one a day before that. */
export function timeline(now: number) {
  const lastHour = hourOf(now) - 1;
  const hourOfDay = (day: number) => lastHour - (DAYS - 1 - day) * 24;
  // Points are taken at some second of their hour, fixed per URL.
  const observedAt = (hour: number, id: number) => hour * HOUR_MS + (id % 3600) * 1000;
  return { hourOfDay, observedAt, addedAt: (id: number) => now - (DAYS + 1) * DAY_MS - (id % 1440) * 60_000 };
}

export const urlOf = (id: number) => `https://www.news-${id % 97}.example/${2024 + (id % 2)}/${String((id % 12) + 1).padStart(2, "0")}/story-${id}-headline-words`;

/** urlOf in SQL. */
export const sqlUrlOf = (id: string) =>
  `'https://www.news-' || (${id} % 97) || '.example/' || (2024 + ${id} % 2) || '/' || lpad((${id} % 12 + 1)::text, 2, '0') || '/story-' || ${id} || '-headline-words'`;
