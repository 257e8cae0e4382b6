import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");
const CLI = path.join("service", "admin", "cli.ts");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout as the one JSON object it must be. */
  json: Record<string, any>;
}

/**
 * Runs the admin command line as an operator does, against `databaseUrl` (plus `env`); rejects unless
 * stdout is exactly one JSON object, which is the command line's contract.
 */
export function runAdmin(databaseUrl: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, QUOTA_TIMEZONE: "UTC", ...env };
  delete childEnv.NODE_OPTIONS;
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [CLI, ...args], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => {
      const lines = stdout.split("\n").filter((line) => line.length > 0);
      let json: Record<string, any>;
      try {
        if (lines.length !== 1) throw new Error(`${lines.length} lines`);
        json = JSON.parse(lines[0]!);
        if (json === null || typeof json !== "object" || Array.isArray(json)) throw new Error("not an object");
      } catch (error) {
        reject(new Error(`admin ${args.join(" ")}: stdout is not one JSON object (${(error as Error).message}):\n${stdout}\n${stderr}`));
        return;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}
