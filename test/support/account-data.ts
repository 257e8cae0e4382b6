import type { PrismaClient } from "../../lib/db/prisma.ts";
import type { ObservedValues } from "../../lib/history/observed.ts";
import type { Store } from "../../lib/store/store.ts";
import { requestId } from "../../service/requests/request-id.ts";

/**
 * An account that owns a row in every table that references accounts, with secrets that must never leave the
 * database (an export must not hold them), for the export and deletion tests on both stores.
 */

const HOUR = 3_600_000;

export const observed = (n: number): ObservedValues => ({
  Facebook: { total_count: n, comment_count: 1, reaction_count: n - 1, share_count: 0, comment_plugin_count: 0 },
  Pinterest: n + 1,
  reddit: { score: -n, comments: 2, posts: 1 },
});

export interface SeededAccount {
  id: string;
  email: string;
  /** Tracked, in the order they were added. */
  urls: string[];
  jobIds: string[];
  /** Values stored for the account that an export must never show. */
  secrets: string[];
}

/**
 * Seeds `id` (an account already created) at `t`: profile, a linked provider, a session, a mailed-link token, a
 * sign-in device, a pending mail, an import, usage and refusals, a logged request, two tracked URLs with points (the first also
 * observed before the account came to it, for `earlierAccount`), and a v1 and a v2 bulk job (the v2 one with a
 * URL still queued).
 */
export async function seedAccountData(
  store: Store,
  prisma: PrismaClient,
  account: { id: string; tag: string; earlierAccount: string },
  t: number,
): Promise<SeededAccount> {
  const { id, tag } = account;
  const secrets = {
    passwordHash: `$argon2id$v=19$m=19456,t=2,p=1$${tag}password$hash`,
    keyHash: `${tag}-api-key-hash`,
    sealedKey: `v1:${tag}-sealed-api-key`,
    accessToken: `gho_${tag}_access`,
    refreshToken: `ghr_${tag}_refresh`,
    idToken: `${tag}.id.token`,
    sessionToken: `${tag}-session-token-hash`,
    tokenHash: `${tag}-mailed-link-hash`,
    payload: `v1:${tag}-sealed-mail-payload`,
  };
  const { email } = await prisma.account.update({
    where: { id },
    data: { name: `Name ${tag}`, emailVerified: new Date(t), passwordHash: secrets.passwordHash },
  });
  await prisma.apiKey.create({
    data: { id: `${tag}-key`, accountId: id, name: "Seeded", keyHash: secrets.keyHash, prefix: "0123abcd", scopes: "counts:read", createdAt: new Date(t), sealed: secrets.sealedKey },
  });
  await prisma.oAuthAccount.create({
    data: {
      userId: id,
      type: "oauth",
      provider: "github",
      providerAccountId: `${tag}-gh`,
      access_token: secrets.accessToken,
      refresh_token: secrets.refreshToken,
      id_token: secrets.idToken,
    },
  });
  await prisma.session.create({ data: { userId: id, sessionToken: secrets.sessionToken, expires: new Date(t + 30 * 24 * HOUR) } });
  await prisma.accountToken.create({
    data: { tokenHash: secrets.tokenHash, accountId: id, purpose: "password_reset", createdAt: new Date(t), expiresAt: new Date(t + HOUR) },
  });
  await prisma.signInDevice.create({ data: { accountId: id, fingerprint: `${tag}-device`, firstSeenAt: new Date(t) } });
  await prisma.mailMessage.create({
    data: { id: `${tag}-mail`, accountId: id, kind: "password_reset", recipient: email, payload: secrets.payload, dueAt: new Date(t), createdAt: new Date(t) },
  });
  await prisma.verificationToken.create({ data: { identifier: email, token: `${tag}-verification`, expires: new Date(t + HOUR) } });
  await prisma.quotaAllocation.create({ data: { accountId: id, day: "2026-03-01", dailyQuota: 1000 } });
  await store.imports.create({ id: `${tag}-import`, accountId: id, kind: "feed", sourceUrl: `https://${tag}.example/feed.xml`, at: t }, { pending: 5, feeds: 20 });
  await store.usage.reserve(id, "2026-03-01", 1000);
  await store.usage.reserve(id, "2026-03-01", 1000);
  await store.usage.addRefusals([{ accountId: id, day: "2026-03-02", refused: { quota: 1, whitelist: 0, invalid: 2 } }]);
  await store.requests.insert([
    { id: requestId(t), accountId: id, time: t, keyId: null, method: "GET", path: "/v2/usage", query: "", status: 200, errorType: null, durationMs: 1, url: null, quotaSpent: 0, ip: "203.0.113.0/24", userAgent: null },
  ]);

  const urls = [`https://${tag}.example/first`, `https://${tag}.example/second`];
  const ids = await store.history.idsOf(urls);
  const [first, second] = urls.map((url) => ids.get(url)!);
  // Observed for another account before this one came to the URL: not this account's history.
  await store.history.noteQueried(account.earlierAccount, [first!], t - 5 * HOUR);
  await store.history.record([{ urlId: first!, at: t - 4 * HOUR, values: observed(10) }]);
  await store.tracked.add(id, [first!, second!], 100, t);
  await store.history.noteQueried(id, [first!, second!], t);
  await store.history.record([{ urlId: first!, at: t + HOUR, values: observed(20) }]);
  await store.history.record([{ urlId: first!, at: t + 2 * HOUR, values: observed(21) }]);
  await store.history.record([{ urlId: second!, at: t + HOUR, values: observed(30) }]);

  const v1Job = `${tag}-job-v1`;
  const v2Job = `${tag}-job-v2`;
  await store.bulk.importCompleted({ id: v1Job, accountId: id, createdAt: t, completedAt: t + 1 }, [
    { url: `https://${tag}.example/bulk-v1`, countUrl: `https://${tag}.example/bulk-v1`, counts: { Facebook: null, Pinterest: 7 }, completedAt: t + 1 },
  ]);
  const queued = await store.bulk.create({ id: v2Job, accountId: id, createdAt: t + 2, networks: ["reddit"] }, [
    { url: `https://${tag}.example/bulk-v2`, countUrl: `https://${tag}.example/bulk-v2` },
    { url: `https://${tag}.example/bulk-queued`, countUrl: `https://${tag}.example/bulk-queued` },
  ]);
  const reddit = { score: 4, comments: 5, posts: 1 };
  await store.bulk.complete([{ item: queued[0]!, result: { networks: { values: { reddit }, stale: {} } } }], { day: "2026-03-01", dailyQuota: 1000 }, t + 3);
  return { id, email, urls, jobIds: [v1Job, v2Job], secrets: Object.values(secrets) };
}
