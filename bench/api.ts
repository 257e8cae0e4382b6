/**
 * `npm run bench:api`: cached single-URL queries under load, against the service as `npm start` runs it
 * (server.ts: API + dashboard + worker + sandbox) and against a bare node:http server answering the same
 * bytes, one after the other with the same autocannon settings. Target: service/bare ≥ 0.5.
 */
import path from "node:path";
import {
  createDedicatedAccount,
  ensureBuild,
  envInt,
  freePort,
  load,
  log,
  runMain,
  startChild,
  stopChild,
  tempDir,
  TSX,
  waitForStatus,
  type LoadResult,
} from "./support.ts";

const SECONDS = envInt("BENCH_SECONDS", 10);
const CONNECTIONS = 64;
const TARGET_RATIO = 0.5;
const QUERY = `/v1.0/?url=${encodeURIComponent("https://example.com/bench")}`;

/**
 * The baseline: answers every request with the service's cached answer, byte for byte (same headers,
 * same body), so the ratio measures the service's own work, not the size of its headers.
 */
const BARE_SERVER = `
const http = require("node:http");
const body = Buffer.from(process.env.BENCH_BODY_BASE64, "base64");
const headers = { ...JSON.parse(process.env.BENCH_HEADERS), "content-length": body.length };
const server = http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
server.keepAliveTimeout = 65000;
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening on " + process.env.PORT));
process.on("SIGTERM", () => process.exit(0));
`;

async function measure(name: string, url: string): Promise<LoadResult> {
  log(`${name}: ${CONNECTIONS} connections for ${SECONDS} s → ${url.replace(/apikey=[^&]+/, "apikey=…")}`);
  const result = await load(url, CONNECTIONS, SECONDS);
  log(`${name}: ${Math.round(result.rps)} req/s, p99 ${result.p99Ms} ms, ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}

async function main(): Promise<number> {
  await ensureBuild();

  // (a) the service, as `npm start` runs it
  const dir = tempDir("bench-api");
  const databaseUrl = `file:${path.join(dir, "bench.db")}`;
  const apiKey = await createDedicatedAccount(databaseUrl);
  const servicePort = await freePort();
  const serviceBase = `http://127.0.0.1:${servicePort}`;
  log(`starting server.ts on ${serviceBase}`);
  const service = startChild("service", TSX, ["server.ts"], {
    PORT: String(servicePort),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    SHARECOUNT_NETWORKS: "sandbox",
    SHARECOUNT_DEMO: "false",
    SANDBOX_LATENCY_MS: "0",
  });
  await waitForStatus(serviceBase, service);

  const serviceUrl = `${serviceBase}${QUERY}&apikey=${apiKey}`;
  // One request warms the cache; the second is the cached answer the load will get, replayed by the bare server.
  const warm = await fetch(serviceUrl);
  const warmText = await warm.text();
  if (warm.status !== 200) throw new Error(`warm-up answered ${warm.status}: ${warmText}`);
  const cached = await fetch(serviceUrl);
  const body = Buffer.from(await cached.arrayBuffer());
  const contentType = cached.headers.get("content-type") ?? "application/json";
  // Everything the service sent but what Node adds itself per connection and response.
  const replayed = Object.fromEntries(
    [...cached.headers].filter(([name]) => !["date", "connection", "keep-alive", "content-length", "transfer-encoding"].includes(name)),
  );
  if (cached.status !== 200) throw new Error(`cached request answered ${cached.status}: ${body.toString("utf8")}`);
  log(`warmed (X-Sharecount-Cache ${warm.headers.get("x-sharecount-cache")} then ${cached.headers.get("x-sharecount-cache")}); body ${body.length} bytes, ${contentType}`);

  const serviceResult = await measure("service", serviceUrl);
  await stopChild(service);

  // (b) bare node:http with the same bytes
  const barePort = await freePort();
  const bareBase = `http://127.0.0.1:${barePort}`;
  log(`starting bare node:http on ${bareBase}`);
  const bare = startChild("bare", process.execPath, ["-e", BARE_SERVER], {
    PORT: String(barePort),
    BENCH_BODY_BASE64: body.toString("base64"),
    BENCH_HEADERS: JSON.stringify(replayed),
  });
  await waitForStatus(bareBase, bare);
  const bareResult = await measure("bare", `${bareBase}${QUERY}&apikey=${apiKey}`);
  await stopChild(bare);

  // report
  const ratio = serviceResult.rps / bareResult.rps;
  const met = ratio >= TARGET_RATIO;
  const row = (name: string, r: LoadResult) =>
    [name.padEnd(8), r.rps.toFixed(0).padStart(10), r.p99Ms.toFixed(0).padStart(8), String(r.total).padStart(10),
      String(r.non2xx).padStart(8), String(r.errors + r.timeouts).padStart(7)].join("  ");
  console.log("");
  console.log(`cached GET ${QUERY}  (${CONNECTIONS} connections, ${SECONDS} s each)`);
  console.log(["target".padEnd(8), "req/s avg".padStart(10), "p99 ms".padStart(8), "requests".padStart(10),
    "non-2xx".padStart(8), "errors".padStart(7)].join("  "));
  console.log(row("service", serviceResult));
  console.log(row("bare", bareResult));
  console.log(`ratio service/bare: ${ratio.toFixed(3)} (target ≥ ${TARGET_RATIO}: ${met ? "met" : "MISSED"})`);
  console.log("");

  const summarize = (r: LoadResult) => ({
    rps: Math.round(r.rps),
    p99_ms: r.p99Ms,
    requests: r.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  });
  console.log(
    JSON.stringify({
      bench: "api",
      connections: CONNECTIONS,
      seconds: SECONDS,
      service: summarize(serviceResult),
      bare: summarize(bareResult),
      ratio: Number(ratio.toFixed(3)),
      target: TARGET_RATIO,
      met,
    }),
  );

  const failed = (r: LoadResult) => r.non2xx + r.errors + r.timeouts > 0;
  if (failed(serviceResult)) console.error("[bench] FAILED: the service answered non-2xx or errors under load");
  if (failed(bareResult)) console.error("[bench] FAILED: the bare server answered non-2xx or errors (the ratio is meaningless)");
  return failed(serviceResult) || failed(bareResult) ? 1 : 0;
}

await runMain(main);
