import { describe, expect, it } from "vitest";
import { ChromiumMissing, DEFAULT_CHROMIUM, ensureChromium, type Machine } from "./ensure-chromium.ts";

/** A machine without Chromium: apt-get "installs" it by making the default path executable. */
function machine(overrides: Partial<Machine> & { commands?: string[] } = {}) {
  const executables = new Set<string>();
  const runs: { command: string; args: string[]; env: Record<string, string> }[] = [];
  const logged: string[] = [];
  const commands = overrides.commands ?? ["apt-get", "sudo"];
  const fake: Machine = {
    chromiumPath: undefined,
    isExecutable: (file) => executables.has(file),
    hasCommand: (name) => commands.includes(name),
    isRoot: false,
    canSudo: () => false,
    run: (command, args, env) => {
      runs.push({ command, args, env });
      if (args.includes("install")) executables.add(DEFAULT_CHROMIUM);
      return 0;
    },
    log: (line) => logged.push(line),
    ...overrides,
  };
  return { fake, runs, executables, logged };
}

describe("npm test's Chromium check", () => {
  it("uses an installed Chromium without running anything", () => {
    const { fake, runs, executables } = machine();
    executables.add(DEFAULT_CHROMIUM);
    expect(ensureChromium(fake)).toBe(DEFAULT_CHROMIUM);
    expect(runs).toEqual([]);
  });

  it("as root, installs Debian's chromium non-interactively, saying so", () => {
    const { fake, runs, logged } = machine({ isRoot: true });
    expect(ensureChromium(fake)).toBe(DEFAULT_CHROMIUM);
    expect(logged).toEqual([expect.stringContaining("installing Debian's chromium")]);
    expect(runs.map((r) => [r.command, ...r.args].join(" "))).toEqual(["apt-get update", "apt-get install -y chromium"]);
    expect(runs.every((r) => r.env.DEBIAN_FRONTEND === "noninteractive")).toBe(true);
  });

  it("with password-less sudo, installs through sudo -n (which keeps no environment, so env carries it)", () => {
    const { fake, runs } = machine({ canSudo: () => true });
    ensureChromium(fake);
    expect(runs.map((r) => [r.command, ...r.args].join(" "))).toEqual([
      "sudo -n env DEBIAN_FRONTEND=noninteractive apt-get update",
      "sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium",
    ]);
  });

  it("without root or sudo, stops at once with the exact command to run", () => {
    const { fake, runs } = machine();
    expect(() => ensureChromium(fake)).toThrow(ChromiumMissing);
    expect(() => ensureChromium(fake)).toThrow("sudo apt-get update && sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium");
    expect(runs).toEqual([]);
  });

  it("without apt-get, says to install Chromium and set CHROMIUM_PATH", () => {
    const { fake, runs } = machine({ isRoot: true, commands: [] });
    expect(() => ensureChromium(fake)).toThrow("CHROMIUM_PATH=/path/to/chromium npm test");
    expect(runs).toEqual([]);
  });

  it("honours CHROMIUM_PATH, and refuses one that is not an executable instead of installing another", () => {
    const { fake, runs, executables } = machine({ isRoot: true, chromiumPath: "/opt/chromium/chrome" });
    expect(() => ensureChromium(fake)).toThrow("CHROMIUM_PATH=/opt/chromium/chrome is not an executable file");
    executables.add("/opt/chromium/chrome");
    expect(ensureChromium(fake)).toBe("/opt/chromium/chrome");
    expect(runs).toEqual([]);
  });

  it("reports a failed install", () => {
    const { fake } = machine({ isRoot: true, run: () => 100 });
    expect(() => ensureChromium(fake)).toThrow("apt-get update failed (exit code 100)");
  });
});
