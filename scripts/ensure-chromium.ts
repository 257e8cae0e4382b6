import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The e2e suite runs in Debian's Chromium, never in a browser downloaded by `npx playwright install` (these
 * machines cannot download one). `npm test` calls this first: it installs Debian's chromium when it is
 * missing and the install can run without a prompt (as root, or with password-less sudo); otherwise it
 * stops at once with the exact command to run, before minutes of other tests.
 */

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";

export interface Machine {
  /** CHROMIUM_PATH when set. */
  chromiumPath: string | undefined;
  isExecutable(file: string): boolean;
  hasCommand(name: string): boolean;
  isRoot: boolean;
  /** `sudo -n true` succeeds: sudo works without asking for a password. */
  canSudo(): boolean;
  /** Runs a command with inherited output; returns its exit code. */
  run(command: string, args: string[], env: Record<string, string>): number;
  log(line: string): void;
}

export class ChromiumMissing extends Error {}

const APT_ENV = { DEBIAN_FRONTEND: "noninteractive" };

/** Returns the Chromium binary to use, installing Debian's package first when that can be done unattended. */
export function ensureChromium(machine: Machine): string {
  if (machine.chromiumPath !== undefined) {
    if (machine.isExecutable(machine.chromiumPath)) return machine.chromiumPath;
    throw new ChromiumMissing(`CHROMIUM_PATH=${machine.chromiumPath} is not an executable file. Point it at a Chromium binary, or unset it to use ${DEFAULT_CHROMIUM}.`);
  }
  if (machine.isExecutable(DEFAULT_CHROMIUM)) return DEFAULT_CHROMIUM;
  if (!machine.hasCommand("apt-get")) {
    throw new ChromiumMissing(`No Chromium at ${DEFAULT_CHROMIUM} and no apt-get to install it: install Chromium, then run\n  CHROMIUM_PATH=/path/to/chromium npm test`);
  }
  // sudo resets the environment, so the non-interactive setting goes through `env`.
  const sudo = machine.isRoot ? [] : machine.hasCommand("sudo") && machine.canSudo() ? ["sudo", "-n", "env", "DEBIAN_FRONTEND=noninteractive"] : null;
  if (sudo === null) {
    throw new ChromiumMissing(
      `No Chromium at ${DEFAULT_CHROMIUM}. The end-to-end tests need Debian's chromium; install it with\n` +
        `  sudo apt-get update && sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium\n` +
        `then run npm test again.`,
    );
  }
  machine.log(`No Chromium at ${DEFAULT_CHROMIUM}: installing Debian's chromium (apt-get)…`);
  for (const args of [["update"], ["install", "-y", "chromium"]]) {
    const [command, ...rest] = [...sudo, "apt-get", ...args] as [string, ...string[]];
    const code = machine.run(command, rest, APT_ENV);
    if (code !== 0) throw new ChromiumMissing(`apt-get ${args.join(" ")} failed (exit code ${code}); Chromium is not installed.`);
  }
  if (!machine.isExecutable(DEFAULT_CHROMIUM)) throw new ChromiumMissing(`apt-get installed chromium, but ${DEFAULT_CHROMIUM} is still missing.`);
  return DEFAULT_CHROMIUM;
}

function onPath(name: string): boolean {
  return (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && isExecutable(path.join(dir, name)));
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export const thisMachine: Machine = {
  chromiumPath: process.env.CHROMIUM_PATH || undefined,
  isExecutable,
  hasCommand: onPath,
  isRoot: process.getuid?.() === 0,
  canSudo: () => spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0,
  run: (command, args, env) => spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1,
  log: (line) => console.log(line),
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureChromium(thisMachine);
  } catch (error) {
    if (!(error instanceof ChromiumMissing)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
