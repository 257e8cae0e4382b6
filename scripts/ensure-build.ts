import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * `npm start` serves the production build of the dashboard; build it when it is missing or older than its
 * sources, so `npm install && npm start` works on a fresh clone and a restart does not rebuild for nothing.
 */
const root = path.resolve(import.meta.dirname, "..");
const buildId = path.join(root, process.env.NEXT_DIST_DIR ?? ".next", "BUILD_ID");
const sources = ["app", "components", "dashboard", "lib", "next.config.js", "package.json", "package-lock.json"];

function newest(entry: string): number {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(full, { withFileTypes: true })
    .filter((d) => d.name !== "generated" && d.name !== "generated-pg" && d.name !== "node_modules")
    .reduce((max, d) => Math.max(max, newest(path.join(entry, d.name))), stat.mtimeMs);
}

const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
if (builtAt < Math.max(...sources.map(newest))) {
  console.log("building the dashboard (next build)…");
  execFileSync(path.join(root, "node_modules", ".bin", "next"), ["build"], { cwd: root, stdio: "inherit" });
}
