import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isPostgresUrl } from "../db/postgres-url.ts";
import { sqliteFileFromUrl } from "../db/sqlite-url.ts";
import { EnvError } from "../env.ts";

/**
 * The server secret: SHARECOUNT_SECRET, or (so `npm start` works out of the box) a random one created once
 * beside the SQLite file, readable by its owner only. Every other secret is derived from it.
 *
 * With PostgreSQL SHARECOUNT_SECRET is required: the processes sharing that database (API, workers,
 * dashboard, admin command line) usually run on different machines, and a secret generated into one
 * machine's file would differ from another's, so keys stored by one could not be read by the others.
 */
export function loadServerSecret(env: { SHARECOUNT_SECRET?: string; DATABASE_URL: string }): Buffer {
  if (env.SHARECOUNT_SECRET) return Buffer.from(env.SHARECOUNT_SECRET, "utf8");
  if (isPostgresUrl(env.DATABASE_URL)) {
    throw new EnvError(
      "Invalid configuration:\n  SHARECOUNT_SECRET: is required with a PostgreSQL DATABASE_URL (at least 32 characters, " +
        "the same for every process sharing the database; e.g. `openssl rand -hex 32`)",
    );
  }
  const file = path.join(path.dirname(sqliteFileFromUrl(env.DATABASE_URL)), "sharecount.secret");
  try {
    return Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const secret = randomBytes(32);
  try {
    fs.writeFileSync(file, secret.toString("hex"), { mode: 0o600, flag: "wx" });
    return secret;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
    throw error;
  }
}

/** A key for one purpose, so no two uses share key material. */
export function deriveKey(secret: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), `sharecount ${purpose}`, 32));
}

const VERSION = "v1";

/** Encrypts secrets at rest (AES-256-GCM), one key per purpose: API keys, the links in queued mail. A leaked database leaks neither. */
export class KeyVault {
  private readonly key: Buffer;

  constructor(secret: Buffer, purpose = "api key encryption") {
    this.key = deriveKey(secret, purpose);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
  }

  /** Throws when the value was not made with this secret (or was tampered with). */
  decrypt(sealed: string): string {
    const [version, payload] = sealed.split(":");
    if (version !== VERSION || !payload) throw new Error("unknown API key encryption format");
    const raw = Buffer.from(payload, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  }
}
