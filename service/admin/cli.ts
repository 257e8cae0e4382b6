import { parseArgs } from "node:util";
import { systemSource } from "../../lib/audit/actor.ts";
import { passwordProblem } from "../../lib/accounts/password-rule.ts";
import { Accounts, AccountError } from "../../lib/accounts/accounts.ts";
import { normalizeEmail } from "../../lib/accounts/email-address.ts";
import { PasswordReset } from "../../lib/accounts/password-reset.ts";
import { AccountDeletion } from "../../lib/accounts/account-deletion.ts";
import { QuotaClock } from "../../lib/quota/clock.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { createPrisma } from "../../lib/db/prisma.ts";
import { openStore } from "../../lib/store/open.ts";
import { KeyVault, loadServerSecret } from "../../lib/security/secrets.ts";
import { EnvError, loadDotEnv, parseEnv } from "../../lib/env.ts";
import { accountMailOf } from "../../lib/accounts/account-mail.ts";
import { mailSettings } from "../../lib/mail/mail-env.ts";
import { openOutbox } from "../../lib/mail/outbox.ts";
import { ApiKeys } from "../../lib/keys/api-keys.ts";
import { rollKeyCommand } from "./key-roll.ts";

const USAGE = `usage: npm run -s admin -- <command> [options]
  account:create --email E --plan free|plus|business|dedicated [--password P]
  account:plan   --email E --plan P
  account:show   --email E
  account:reset-link --email E
  account:password   --email E --password P
  account:delete --email E
  key:roll       --email E [--key ID] [--grace SECONDS]   (the old key works on for the grace; default 86400)
  whitelist:set  --email E --domains a.com,*.b.com --enabled true|false
  plan:list
  plan:set       --plan P [--daily-quota N] [--bulk-batch-limit N] [--custom-ttl true|false] [--tracked-url-limit N]
Each command prints one JSON object on stdout; on error it prints {"error": "..."} and exits with 1.`;

const options = {
  email: { type: "string" },
  plan: { type: "string" },
  password: { type: "string" },
  key: { type: "string" },
  grace: { type: "string" },
  domains: { type: "string" },
  enabled: { type: "string" },
  "daily-quota": { type: "string" },
  "bulk-batch-limit": { type: "string" },
  "custom-ttl": { type: "string" },
  "tracked-url-limit": { type: "string" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>["values"];

function required(values: Values, name: keyof Values): string {
  const value = values[name];
  if (typeof value !== "string" || value.length === 0) throw new AccountError(`--${name} is required\n${USAGE}`);
  return value;
}

function bool(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === "true" || value === "false") return value === "true";
  throw new AccountError(`--${name} must be true or false`);
}

/** Plan limits are 32-bit integers in the database. */
const MAX_COUNT = 2_147_483_647;

function count(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > MAX_COUNT) {
    throw new AccountError(`--${name} must be a whole number from 0 to ${MAX_COUNT}`);
  }
  return Number(value);
}

async function main(argv: string[]): Promise<unknown> {
  const { positionals, values } = parseArgs({ args: argv, options, allowPositionals: true });
  const command = positionals[0];
  if (!command) throw new AccountError(USAGE);
  loadDotEnv();
  const env = parseEnv();
  // The secret first: with PostgreSQL it must be configured, and a missing one should not wait for migrations.
  const secret = loadServerSecret(env);
  const vault = new KeyVault(secret);
  await migrate(env.DATABASE_URL);
  // Beside a running server on the same SQLite file: a read-then-write transaction must not meet its commits.
  const prisma = createPrisma(env.DATABASE_URL, { immediate: true });
  const clock = new QuotaClock(env.QUOTA_TIMEZONE);
  const store = openStore(env.DATABASE_URL);
  const accounts = new Accounts(prisma, clock, store);
  const outbox = openOutbox(prisma, secret);
  const mail = accountMailOf(prisma, outbox, mailSettings(env).linkOrigin);
  const passwordReset = new PasswordReset({
    prisma,
    outbox,
    linkOrigin: mailSettings(env).linkOrigin,
    ttlMinutes: env.PASSWORD_RESET_TTL_MINUTES,
    timeZone: clock.timeZone,
  });
  try {
    switch (command) {
      case "account:create": {
        const email = required(values, "email");
        // The sign-up rule holds here too: a password set by an operator is guessed as easily.
        const problem = values.password === undefined ? null : passwordProblem(values.password, email);
        if (problem) throw new AccountError(`--password: ${problem}`);
        // As at sign-up: the address is confirmed by the link mailed to it, not by the operator typing it.
        const { account, apiKey } = await accounts.create({ email, plan: required(values, "plan"), password: values.password }, (tx, created) =>
          mail.verification.send(tx, created, clock.now()),
        );
        return { email: account.email, plan: account.planName, apikey: apiKey };
      }
      case "account:plan":
        return await accounts.setPlan(required(values, "email"), required(values, "plan"), systemSource(clock.now()));
      case "account:show":
        return await accounts.show(required(values, "email"));
      case "account:reset-link": {
        const { email, link, expiresAt } = await passwordReset.link(required(values, "email"), clock.now());
        return { email, link, expires_at: expiresAt.toISOString() };
      }
      case "account:password": {
        const email = required(values, "email");
        const password = required(values, "password");
        const problem = passwordProblem(password, email);
        if (problem) throw new AccountError(`--password: ${problem}`);
        const id = await accounts.idOf(email);
        if (!id) throw new AccountError(`No account with email ${email}`);
        const account = { id, email: normalizeEmail(email) };
        const ended = await accounts.setPassword(id, password, {
          audit: systemSource(clock.now()),
          via: "admin",
          within: (tx) => passwordReset.queueChangedNotice(tx, account, clock.now()),
        });
        return { email: account.email, sessions_ended: ended };
      }
      case "account:delete": {
        const email = required(values, "email");
        const id = await accounts.idOf(email);
        if (!id) throw new AccountError(`No account with email ${email}`);
        const deletion = new AccountDeletion({
          prisma,
          outbox,
          clock,
          bulk: store.bulk,
          linkOrigin: mailSettings(env).linkOrigin,
          redis: env.REDIS_URL ? { url: env.REDIS_URL, prefix: env.REDIS_PREFIX } : null,
        });
        return { deleted: (await deletion.delete(id)).email };
      }
      case "key:roll":
        return await rollKeyCommand({ accounts, keys: new ApiKeys(prisma, vault), mail, now: clock.now() }, { email: required(values, "email"), key: values.key, grace: values.grace });
      case "whitelist:set": {
        const domains = (values.domains ?? "").split(",").map((d) => d.trim()).filter(Boolean);
        const enabled = bool(required(values, "enabled"), "enabled")!;
        return await accounts.setWhitelist(required(values, "email"), domains, enabled, systemSource(clock.now()));
      }
      case "plan:list":
        return { plans: await accounts.plans() };
      case "plan:set":
        return await accounts.updatePlan(required(values, "plan"), {
          dailyQuota: count(values["daily-quota"], "daily-quota"),
          bulkBatchLimit: count(values["bulk-batch-limit"], "bulk-batch-limit"),
          customTtlAllowed: bool(values["custom-ttl"], "custom-ttl"),
          trackedUrlLimit: count(values["tracked-url-limit"], "tracked-url-limit"),
        });
      default:
        throw new AccountError(`Unknown command ${command}\n${USAGE}`);
    }
  } finally {
    await prisma.$disconnect();
    await store.close();
  }
}

try {
  console.log(JSON.stringify(await main(process.argv.slice(2))));
} catch (error) {
  const known = error instanceof AccountError || error instanceof EnvError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
  if (!known) console.error(error);
  console.log(JSON.stringify({ error: known ? (error as Error).message : "unexpected error (details on stderr)" }));
  process.exitCode = 1;
}
