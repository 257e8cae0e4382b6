import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { metricsRegistry } from "../../lib/metrics/metrics.ts";

/*
 * The compose file's `observability` profile cannot run here (no container engine), so what it is made of is
 * checked: the Grafana dashboard loads and queries only metrics, and labels, the service exports; Prometheus
 * scrapes the processes compose runs, with the token they ask for.
 */

const deploy = path.resolve("deploy");
const read = (file: string) => fs.readFileSync(path.join(deploy, file), "utf8");

interface Panel {
  type: string;
  title: string;
  targets?: { expr: string }[];
}

const dashboard = JSON.parse(read("grafana/sharecount.json")) as { uid: string; title: string; panels: Panel[] };
const queries = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));

/** The metric names an expression reads (the service's and Node's process metrics). */
function metricsIn(expr: string): string[] {
  return [...expr.matchAll(/\b((?:sharecount|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1]!);
}

/** What the registry exports under `name` (a histogram's series end in _bucket, _sum or _count). */
function exported(name: string): { name: string; labelNames: readonly string[]; type: string } | undefined {
  for (const candidate of [name, name.replace(/_(bucket|sum|count)$/, "")]) {
    const metric = metricsRegistry.getSingleMetric(candidate) as unknown as { name: string; labelNames?: readonly string[]; type: string } | undefined;
    if (metric && (candidate === name || metric.type === "histogram")) return { name: metric.name, labelNames: metric.labelNames ?? [], type: metric.type };
  }
  return undefined;
}

describe("the Grafana dashboard", () => {
  it("loads as a dashboard with panels that query something", () => {
    expect(dashboard).toMatchObject({ uid: "sharecount", title: "sharecount" });
    const charts = dashboard.panels.filter((panel) => panel.type !== "row");
    expect(charts.length).toBeGreaterThanOrEqual(12);
    for (const chart of charts) expect(chart.targets?.length, chart.title).toBeGreaterThan(0);
  });

  it("queries only metrics the service exports, by labels they have", () => {
    for (const { panel, expr } of queries) {
      const names = metricsIn(expr);
      expect(names.length, `${panel}: ${expr}`).toBeGreaterThan(0);
      const labels = new Set<string>(["le", "service", "instance", "job"]);
      for (const name of names) {
        const metric = exported(name);
        expect(metric, `${panel}: ${name} is not exported`).toBeDefined();
        metric!.labelNames.forEach((label) => labels.add(label));
      }
      for (const match of expr.matchAll(/\bby \(([^)]*)\)/g)) {
        for (const label of match[1]!.split(",").map((l) => l.trim())) expect(labels.has(label), `${panel}: no label ${label} in ${expr}`).toBe(true);
      }
      for (const match of expr.matchAll(/\{([^}]*)\}/g)) {
        for (const matcher of match[1]!.split(",")) expect(labels.has(matcher.split(/=~|!=|=/)[0]!.trim()), `${panel}: ${matcher}`).toBe(true);
      }
    }
  });

  it("shows what operators watch", () => {
    const read = queries.flatMap(({ expr }) => metricsIn(expr));
    for (const name of [
      "sharecount_http_requests_total",
      "sharecount_http_request_duration_seconds_bucket",
      "sharecount_count_cache_total",
      "sharecount_upstream_requests_total",
      "sharecount_quota_refusals_total",
      "sharecount_bulk_queue_depth",
      "sharecount_refresh_lag_seconds",
    ])
      expect(read).toContain(name);
    expect(queries.some(({ expr }) => expr.includes('outcome=~"throttled|skipped_budget"'))).toBe(true);
    expect(queries.some(({ expr }) => expr.startsWith("histogram_quantile(0.95") && expr.includes("by (route, le)"))).toBe(true);
  });
});

describe("the compose file's observability profile", () => {
  const compose = parse(read("compose.yaml")) as {
    services: Record<string, { profiles?: string[]; command?: string[]; configs?: { source: string; target: string }[]; environment?: Record<string, string> }>;
    configs: Record<string, { file?: string; content?: string }>;
    "x-app": { environment: Record<string, string> };
  };
  const prometheus = parse(read("prometheus/prometheus.yml")) as {
    scrape_configs: { metrics_path: string; authorization: { credentials_file: string }; dns_sd_configs: { names: string[]; port: number }[] }[];
  };

  it("adds Prometheus and Grafana only under the profile, with every file it mounts present", () => {
    expect(compose.services.prometheus!.profiles).toEqual(["observability"]);
    expect(compose.services.grafana!.profiles).toEqual(["observability"]);
    for (const service of ["api", "worker", "web"]) expect(compose.services[service]!.profiles).toBeUndefined();
    for (const [name, config] of Object.entries(compose.configs)) {
      if (config.file) expect(fs.existsSync(path.join(deploy, config.file)), name).toBe(true);
    }
    const grafanaFiles = Object.fromEntries(compose.services.grafana!.configs!.map((c) => [c.target, compose.configs[c.source]!.file]));
    expect(grafanaFiles["/var/lib/grafana/dashboards/sharecount.json"]).toBe("./grafana/sharecount.json");
  });

  it("scrapes every sharecount process on its port, with the token the processes are given", () => {
    const [job] = prometheus.scrape_configs;
    expect(job!.metrics_path).toBe("/metrics");
    const scraped = job!.dns_sd_configs.flatMap((sd) => sd.names).sort();
    const processes = Object.entries(compose.services)
      .filter(([, service]) => service.command?.[0] === "npm" && /^start:/.test(service.command[2] ?? ""))
      .map(([name]) => name)
      .sort();
    expect(scraped).toEqual(processes);
    expect(job!.dns_sd_configs[0]!.port).toBe(Number(compose["x-app"].environment.PORT));
    const token = compose.services.prometheus!.configs!.find((c) => c.target === job!.authorization.credentials_file);
    expect(compose.configs[token!.source]!.content).toBe("${METRICS_TOKEN:-}");
    expect(compose["x-app"].environment.METRICS_TOKEN).toBe("${METRICS_TOKEN:-}");
  });
});
