import { describe, expect, it } from "vitest";
import { accountMailOf } from "../../lib/accounts/account-mail.ts";
import { hashApiKey } from "../../lib/accounts/api-key.ts";
import { accountMailHarness, ORIGIN } from "../support/account-mail.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase } from "../support/stores.ts";

/** The notice of a rolled key, queued in the roll's transaction, on both databases. */
const skipPostgres = (await postgresSkipReason("test/accounts/key-roll-notice.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

describe.each(drivers)("the key-rolled notice on $name", ({ database, skip }) => {
  const h = accountMailHarness(database, skip);
  const keyHashOf = async (id: string) => (await h.db.prisma.account.findUniqueOrThrow({ where: { id } })).apiKeyHash;

  it.skipIf(skip)("a roll queues the notice with it, and the account gets it", async () => {
    const account = await h.account();
    const apiKey = await h.accounts.rollKeyOf(account.id, (tx, rolled) => h.mail.notices.keyRolled(tx, rolled, h.clock.now));
    expect(await keyHashOf(account.id)).toBe(hashApiKey(apiKey));
    expect(await h.mailTo(account.email)).toEqual([{ kind: "api_key_rolled", status: "pending" }]);

    await h.deliver();
    const [mail] = h.received(account.email);
    expect(mail!.subject).toBe("Your sharecount API key was rolled");
    expect(mail!.text).toContain("on 1 March 2026 at 09:00 UTC");
    expect(mail!.text).not.toContain(apiKey);
    expect(String(mail!.html)).toContain(`${ORIGIN}/dashboard`);
  });

  it.skipIf(skip)("the admin command line's roll by address does the same", async () => {
    const account = await h.account();
    const { apikey } = await h.accounts.rollKey(account.email, (tx, rolled) => h.mail.notices.keyRolled(tx, rolled, h.clock.now));
    expect(await keyHashOf(account.id)).toBe(hashApiKey(apikey));
    expect(await h.mailTo(account.email)).toEqual([{ kind: "api_key_rolled", status: "pending" }]);
  });

  it.skipIf(skip)("no notice can be queued, no roll: the old key keeps working", async () => {
    const account = await h.account();
    const before = await keyHashOf(account.id);
    const broken = accountMailOf(h.db.prisma, h.outbox, "not a url");
    await expect(h.accounts.rollKeyOf(account.id, (tx, rolled) => broken.notices.keyRolled(tx, rolled, h.clock.now))).rejects.toThrow();
    expect(await keyHashOf(account.id)).toBe(before);
    expect(await h.mailTo(account.email)).toEqual([]);
  });
});
