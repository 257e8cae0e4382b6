import fs from "node:fs";
import path from "node:path";

/** What a browser can reach on the dashboard, read from the app's own files so a new page or route is covered at once. */

const APP = path.resolve("app");

/** Static dashboard pages (from app/dashboard/**\/page.tsx; pages with a [param] are left out). */
export function dashboardPages(): string[] {
  const pages: string[] = [];
  const walk = (dir: string, route: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (entry.name.startsWith("[") || entry.name.startsWith("_") || entry.name.startsWith("@")) continue;
        // Route groups "(name)" add no path segment.
        walk(path.join(dir, entry.name), /^\(.*\)$/.test(entry.name) ? route : `${route}/${entry.name}`);
      } else if (/^page\.(tsx|ts|jsx|js)$/.test(entry.name)) {
        pages.push(route);
      }
    }
  };
  walk(path.join(APP, "dashboard"), "/dashboard");
  return pages.sort();
}

export interface DashboardRoute {
  path: string;
  methods: string[];
}

/** The dashboard's server routes (app/api/dashboard/**\/route.ts) and the methods each exports. */
export function dashboardRoutes(): DashboardRoute[] {
  const routes: DashboardRoute[] = [];
  const walk = (dir: string, route: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        // A dynamic segment gets a value no account owns; the session check comes before any lookup.
        const segment = entry.name.startsWith("[") ? "e2e-does-not-exist" : entry.name;
        walk(path.join(dir, entry.name), /^\(.*\)$/.test(entry.name) ? route : `${route}/${segment}`);
      } else if (/^route\.(ts|js)$/.test(entry.name)) {
        const source = fs.readFileSync(path.join(dir, entry.name), "utf8");
        const methods = [
          ...source.matchAll(/export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g),
          ...[...source.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) =>
            [...m[1]!.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\b/g)].map((n) => n),
          ),
        ].map((m) => m[1]!);
        routes.push({ path: route, methods: [...new Set(methods)].sort() });
      }
    }
  };
  walk(path.join(APP, "api", "dashboard"), "/api/dashboard");
  return routes.sort((a, b) => a.path.localeCompare(b.path));
}

export const MUTATIONS = ["POST", "PUT", "PATCH", "DELETE"];
