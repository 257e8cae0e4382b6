import { hashApiKey } from "../../lib/accounts/api-key.ts";
import type { AccountContext, Store } from "../store/types.ts";
import { apiErrors } from "./errors.ts";

const MAX_KEY_LENGTH = 256;

export async function authenticate(store: Store, apiKey: string | undefined): Promise<AccountContext> {
  if (!apiKey) throw apiErrors.missingApiKey();
  if (apiKey.length > MAX_KEY_LENGTH) throw apiErrors.invalidApiKey();
  const account = await store.accountByKeyHash(hashApiKey(apiKey));
  if (!account) throw apiErrors.invalidApiKey();
  return account;
}
