import type { AccountMail } from "../../lib/accounts/account-mail.ts";
import { systemSource } from "../../lib/audit/actor.ts";
import { AccountError, type Accounts } from "../../lib/accounts/accounts.ts";
import { DEFAULT_GRACE_SECONDS, MAX_GRACE_SECONDS, type ApiKeys } from "../../lib/keys/api-keys.ts";
import { KeyError } from "../../lib/keys/key-errors.ts";
import { keyNotices } from "../../lib/keys/key-notices.ts";
import { ALL_SCOPES } from "../../lib/keys/scopes.ts";

/**
 * `key:roll --email E [--key ID] [--grace SECONDS]`: the operator rolls a key of an account (the account's only
 * active key when --key is left out); the old key works on for the grace (default a day, 0: stops at once).
 */
export async function rollKeyCommand(
  deps: { accounts: Accounts; keys: ApiKeys; mail: AccountMail; now: number },
  args: { email: string; key: string | undefined; grace: string | undefined },
) {
  const accountId = await deps.accounts.idOf(args.email);
  if (!accountId) throw new AccountError(`No account with email ${args.email}`);
  if (args.grace !== undefined && (!/^\d+$/.test(args.grace) || Number(args.grace) > MAX_GRACE_SECONDS)) {
    throw new AccountError(`--grace must be a whole number of seconds from 0 to ${MAX_GRACE_SECONDS}`);
  }
  const grace = args.grace === undefined ? DEFAULT_GRACE_SECONDS : Number(args.grace);
  const keyId = args.key ?? (await onlyActiveKey(deps.keys, accountId, deps.now));
  try {
    const rolled = await deps.keys.roll(accountId, keyId, grace, ALL_SCOPES, systemSource(deps.now), keyNotices(deps.mail.notices, deps.now).rolled);
    return {
      email: args.email,
      key_id: rolled.record.id,
      name: rolled.record.name,
      apikey: rolled.key,
      old_key_works_until: new Date(deps.now + grace * 1000).toISOString(),
    };
  } catch (error) {
    if (error instanceof KeyError) throw new AccountError(error.message);
    throw error;
  }
}

async function onlyActiveKey(keys: ApiKeys, accountId: string, now: number): Promise<string> {
  const active = (await keys.list(accountId)).filter((key) => key.revokedAt === null && (key.expiresAt === null || key.expiresAt > now));
  if (active.length === 1) return active[0]!.id;
  if (active.length === 0) throw new AccountError("The account has no active key to roll.");
  throw new AccountError(`The account has ${active.length} active keys: name one with --key (${active.map((key) => `${key.id} "${key.name}"`).join(", ")}).`);
}
