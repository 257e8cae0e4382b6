import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError } from "../env.ts";
import { deriveKey, KeyVault, loadServerSecret } from "./secrets.ts";

describe("key vault", () => {
  const vault = new KeyVault(Buffer.from("a".repeat(32)));

  it("round-trips a key, with a fresh IV every time", () => {
    const key = "0123456789abcdef0123456789abcdef01234567";
    const a = vault.encrypt(key);
    const b = vault.encrypt(key);
    expect(a).not.toBe(b);
    expect(a).not.toContain(key);
    expect(vault.decrypt(a)).toBe(key);
    expect(vault.decrypt(b)).toBe(key);
  });

  it("refuses a value made with another secret or tampered with", () => {
    const sealed = vault.encrypt("secret-key");
    expect(() => new KeyVault(Buffer.from("b".repeat(32))).decrypt(sealed)).toThrow();
    const raw = Buffer.from(sealed.slice(3), "base64url");
    raw[raw.length - 1]! ^= 1;
    expect(() => vault.decrypt(`v1:${raw.toString("base64url")}`)).toThrow();
    expect(() => vault.decrypt("v0:abc")).toThrow();
  });

  it("derives different keys for different purposes", () => {
    const secret = Buffer.from("c".repeat(32));
    expect(deriveKey(secret, "one").equals(deriveKey(secret, "two"))).toBe(false);
    expect(deriveKey(secret, "one").equals(deriveKey(secret, "one"))).toBe(true);
  });
});

describe("server secret", () => {
  it("uses SHARECOUNT_SECRET when set", () => {
    const secret = "s".repeat(40);
    expect(loadServerSecret({ SHARECOUNT_SECRET: secret, DATABASE_URL: "file:/nonexistent/x.db" }).toString()).toBe(secret);
  });

  it("otherwise creates one beside the database once, readable by its owner only, and keeps it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-secret-"));
    try {
      const env = { DATABASE_URL: `file:${path.join(dir, "db.sqlite")}` };
      const first = loadServerSecret(env);
      expect(first.length).toBe(32);
      expect(loadServerSecret(env).equals(first)).toBe(true);
      expect(fs.statSync(path.join(dir, "sharecount.secret")).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("server secret with PostgreSQL", () => {
  it("requires SHARECOUNT_SECRET (no file beside the database to keep one in)", () => {
    for (const DATABASE_URL of ["postgresql://u@db.example:5432/sc", "postgres://u@db.example/sc"]) {
      expect(() => loadServerSecret({ DATABASE_URL })).toThrow(EnvError);
      expect(() => loadServerSecret({ DATABASE_URL })).toThrow(/SHARECOUNT_SECRET: is required with a PostgreSQL DATABASE_URL/);
    }
    const secret = "p".repeat(40);
    expect(loadServerSecret({ SHARECOUNT_SECRET: secret, DATABASE_URL: "postgresql://u@db.example/sc" }).toString()).toBe(secret);
  });
});
