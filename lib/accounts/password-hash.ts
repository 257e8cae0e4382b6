import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";

// Verifying against a real hash when there is none keeps the answer time the same either way.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2hhcmVjb3VudGR1bW15$Xh4rW8c6oEJ7o3b0Vxv1hjm3mLzZ3o3bW4xM9kqCk2w";

/** Whether the password is the account's; as slow when the account has none. */
export async function passwordMatches(passwordHash: string | null, password: string): Promise<boolean> {
  const valid = await argon2Verify(passwordHash ?? DUMMY_HASH, password).catch(() => false);
  return passwordHash !== null && valid;
}

/** argon2id with the library's defaults (OWASP's recommended minimum: 19 MiB, 2 passes). */
export function hashPassword(password: string): Promise<string> {
  return argon2Hash(password);
}
