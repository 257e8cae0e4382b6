import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/*
 * `npm ci` on a fresh clone, on any platform: package-lock.json must match package.json and record the optional
 * packages of every platform (the native builds of Next.js's compiler, Tailwind's engine, msgpackr…). npm
 * records only the running platform's unless the lock file already lists the others, so an `npm install` on
 * Linux can drop macOS's and Windows's, and `npm ci` there then fails. Regenerate it with
 * `rm package-lock.json && npm install --package-lock-only --ignore-scripts`.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
interface LockFile {
  packages: Record<string, LockEntry>;
}

const readLock = (): LockFile => JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8"));

/** Where Node would find `name` from the package at `from` (a lock-file key): its own node_modules, then each parent's. */
function resolve(lock: LockFile, from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf("/node_modules/")))) {
    const key = dir === "" ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (lock.packages[key]) return key;
    if (dir === "") return undefined;
  }
}

/** Every optional dependency that some locked package declares and the lock file does not record. */
function missingOptionalPackages(lock: LockFile): string[] {
  return Object.entries(lock.packages).flatMap(([from, entry]) =>
    Object.keys(entry.optionalDependencies ?? {})
      .filter((name) => resolve(lock, from, name) === undefined)
      .map((name) => `${name} (optional dependency of ${from || "the project"})`),
  );
}

/** `npm ci --dry-run` in a folder holding only package.json and this lock file: exit code and what npm said. */
async function npmCiDryRun(lock: LockFile): Promise<{ code: number; output: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-lock-"));
  try {
    fs.copyFileSync(path.join(ROOT, "package.json"), path.join(dir, "package.json"));
    fs.writeFileSync(path.join(dir, "package-lock.json"), JSON.stringify(lock, null, 2));
    // Offline and with a cache of its own: the check needs only the two files, never the registry.
    const args = ["ci", "--dry-run", "--offline", "--ignore-scripts", "--no-audit", "--no-fund", "--cache", path.join(dir, "cache")];
    const { stdout, stderr } = await run("npm", args, { cwd: dir });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === "number" ? failed.code : 1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The lock file without one package's entry, as an `npm install` that dropped it leaves it. */
function without(lock: LockFile, key: string): LockFile {
  expect(lock.packages[key], key).toBeDefined();
  const packages = { ...lock.packages };
  delete packages[key];
  return { ...lock, packages };
}

describe("package-lock.json", () => {
  it("records the optional packages of every platform", () => {
    const lock = readLock();
    expect(missingOptionalPackages(lock)).toEqual([]);
    // The ones a fresh clone on macOS, Windows, Alpine or an ARM machine needs first.
    const platforms = ["darwin-arm64", "darwin-x64", "win32-x64-msvc", "linux-x64-gnu", "linux-x64-musl", "linux-arm64-gnu", "linux-arm64-musl"];
    for (const platform of platforms) {
      expect(lock.packages[`node_modules/@next/swc-${platform}`], platform).toBeDefined();
      expect(lock.packages[`node_modules/@tailwindcss/oxide-${platform}`], platform).toBeDefined();
    }
  });

  it("is what npm ci installs from: in sync with package.json", async () => {
    const { code, output } = await npmCiDryRun(readLock());
    expect(output).not.toContain("npm error");
    expect(code).toBe(0);
  });

  it("is refused, by this check and by npm ci, when one platform's package is missing", async () => {
    const lock = without(readLock(), "node_modules/@tailwindcss/oxide-darwin-arm64");
    expect(missingOptionalPackages(lock)).toEqual(["@tailwindcss/oxide-darwin-arm64 (optional dependency of node_modules/@tailwindcss/oxide)"]);
    const { code, output } = await npmCiDryRun(lock);
    expect(code).not.toBe(0);
    expect(output).toContain("in sync");
  });
});
