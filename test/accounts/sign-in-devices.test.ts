import { describe, expect, it } from "vitest";
import { accountMailHarness, ORIGIN } from "../support/account-mail.ts";
import { postgresSkipReason, postgresStoreDatabase, sqliteStoreDatabase } from "../support/stores.ts";

/** The new-browser notice on both databases, delivered through a real mail worker and SMTP server. */
const skipPostgres = (await postgresSkipReason("test/accounts/sign-in-devices.test.ts")) !== undefined;
const drivers = [
  { name: "SQLite", database: sqliteStoreDatabase, skip: false },
  { name: "PostgreSQL", database: postgresStoreDatabase, skip: skipPostgres },
];

const CHROME_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const CHROME_LINUX_LATER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/133.0.0.0 Safari/537.36";
const FIREFOX_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0";

describe.each(drivers)("new-browser notices on $name", ({ database, skip }) => {
  const h = accountMailHarness(database, skip);
  const signIn = (accountId: string, userAgent: string, address: string) => h.mail.devices.record(accountId, { userAgent, address }, h.clock.now);
  const notices = async (email: string) => (await h.mailTo(email)).filter((m) => m.kind === "new_sign_in");

  it.skipIf(skip)("the first sign-in is only recorded; the same browser family on the same network sends nothing", async () => {
    const account = await h.account();
    expect(await signIn(account.id, CHROME_LINUX, "203.0.113.7")).toBe("first");
    // A browser update and another address in the same /16: the same browser, as far as the notice goes.
    expect(await signIn(account.id, CHROME_LINUX_LATER, "203.0.200.9")).toBe("known");
    expect(await signIn(account.id, CHROME_LINUX, "::ffff:203.0.1.1")).toBe("known");
    expect(await notices(account.email)).toEqual([]);
  });

  it.skipIf(skip)("a new browser family, or a new network, mails the account once each", async () => {
    const account = await h.account();
    await signIn(account.id, CHROME_LINUX, "203.0.113.7");
    expect(await signIn(account.id, FIREFOX_MAC, "203.0.113.7")).toBe("new");
    expect(await signIn(account.id, FIREFOX_MAC, "203.0.113.8")).toBe("known");
    expect(await signIn(account.id, CHROME_LINUX, "198.51.100.4")).toBe("new");
    expect(await signIn(account.id, CHROME_LINUX, "2001:db8:aa::1")).toBe("new");
    expect(await signIn(account.id, CHROME_LINUX, "2001:db8:bb::1")).toBe("known");
    expect(await notices(account.email)).toHaveLength(3);

    h.clock.now += 5 * 60_000;
    await h.deliver();
    const [first] = h.received(account.email);
    expect(first!.subject).toBe("A new sign-in to your sharecount account");
    expect(first!.text).toContain("Firefox on macOS");
    expect(first!.text).toContain("203.0.0.0/16");
    expect(first!.text).toContain("on 1 March 2026 at 09:00 UTC");
    expect(first!.text).toContain(`${ORIGIN}/dashboard/settings`);
    expect(String(first!.html)).toContain(`${ORIGIN}/dashboard/settings`);
  });

  it.skipIf(skip)("sign-ins at the same moment: at most one notice for a new browser, none for a first one", async () => {
    const fresh = await h.account();
    const firsts = await Promise.all(Array.from({ length: 4 }, () => signIn(fresh.id, CHROME_LINUX, "203.0.113.7")));
    expect(firsts.sort()).toEqual(["first", "known", "known", "known"]);
    expect(await notices(fresh.email)).toEqual([]);

    const kinds = await Promise.all(Array.from({ length: 4 }, () => signIn(fresh.id, FIREFOX_MAC, "198.51.100.4")));
    expect(kinds.sort()).toEqual(["known", "known", "known", "new"]);
    expect(await notices(fresh.email)).toHaveLength(1);
  });

  it.skipIf(skip)("each account has its own browsers", async () => {
    const [one, two] = [await h.account(), await h.account()];
    await signIn(one.id, CHROME_LINUX, "203.0.113.7");
    expect(await signIn(two.id, CHROME_LINUX, "203.0.113.7")).toBe("first");
    expect(await signIn(two.id, FIREFOX_MAC, "203.0.113.7")).toBe("new");
    expect(await notices(one.email)).toEqual([]);
    expect(await notices(two.email)).toHaveLength(1);
  });
});
