import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { testDatabase } from "../../test/support/service.ts";
import { checkReadiness, migrationsInPlace } from "./readiness.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe("readiness", () => {
  it("is ready only when every check passes, names the ones that fail, and counts a hung one as down", async () => {
    const report = await checkReadiness({
      database: async () => {},
      redis: () => Promise.reject(new Error("ECONNREFUSED")),
      migrations: () => new Promise(() => {}),
    });
    expect(report).toEqual({ ready: false, checks: { database: "up", redis: "down", migrations: "down" } });
    expect(await checkReadiness({ database: async () => {} })).toEqual({ ready: true, checks: { database: "up" } });
  });

  it("migrations: in place on a migrated database, pending on an empty one", async () => {
    const migrated = await testDatabase();
    try {
      await expect(migrationsInPlace(migrated.url)()).resolves.toBeUndefined();
    } finally {
      await migrated.drop();
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-empty-"));
    dirs.push(dir);
    await expect(migrationsInPlace(`file:${path.join(dir, "empty.db")}`)()).rejects.toThrow(/migrations pending: 0001/);
  });
});
