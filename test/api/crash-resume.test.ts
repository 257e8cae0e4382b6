import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveCounts } from "../../service/sandbox/derive-counts.ts";
import { ROOT, TSX } from "../support/admin-cli.ts";
import { freePort, killAll, startChild, until, waitHealthy, type Child } from "../support/processes.ts";
import { todayUtc } from "../support/service.ts";

/*
 * The durability requirement: kill -9 of the process mid-job, then start again, and the job completes with
 * every URL answered once and counted once. The service runs as a real child process (API + worker, as
 * `npm run start:api` runs it without Redis) on its own SQLite file; the test kills it with SIGKILL partway
 * through a job. (test/scale/ does the same to one of two bulk workers on PostgreSQL + Redis.)
 */

const N = 400;

const children: Child[] = [];
let dir: string;
let env: NodeJS.ProcessEnv;
let baseUrl: string;
let sandboxPort: number;

function startService(): Child {
  const child = startChild("service", "start/api.ts", env);
  children.push(child);
  return child;
}

async function waitUp(child: Child) {
  await waitHealthy(`${baseUrl}/v1.0/status`, child);
  expect(child.output.join("")).toMatch(/"event":"listening"/);
}

interface BulkAnswer {
  data: Record<string, Record<string, unknown>> | unknown[];
  _meta: { urls_completed: number; urls_queued: number; completed: boolean; bulk_id: string };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sharecount-crash-"));
  const port = await freePort();
  sandboxPort = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  env = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: `file:${path.join(dir, "db.sqlite")}`,
    SHARECOUNT_NETWORKS: "sandbox",
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_LATENCY_MS: "100",
    BULK_CONCURRENCY: "8",
    QUOTA_TIMEZONE: "UTC",
  };
});

afterAll(async () => {
  await killAll(children);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("crash and resume", () => {
  it(
    "finishes a job after kill -9 mid-job: every URL answered once and counted once",
    async () => {
      // The account, through the admin command line (which migrates the new database first).
      const { stdout } = await promisify(execFile)(
        TSX,
        ["service/admin/cli.ts", "account:create", "--email", "crash@example.com", "--plan", "business"],
        { cwd: ROOT, env },
      );
      const created = JSON.parse(stdout.trim().split("\n").at(-1)!) as { apikey: string; plan: string };
      expect(created.plan).toBe("business");
      const apiKey = created.apikey;

      const first = startService();
      await waitUp(first);

      const urls = Array.from({ length: N }, (_, i) => `https://example.com/crash-${i}-${Math.random().toString(36).slice(2, 8)}`);
      const submitted = await fetch(`${baseUrl}/v1.0/bulk?apikey=${apiKey}`, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: `${urls.join("\n")}\n`,
      });
      const { count, bulk_id: bulkId } = (await submitted.json()) as { count: number; bulk_id: string };
      expect(submitted.status).toBe(200);
      expect(count).toBe(N);

      const retrieve = async () =>
        (await (await fetch(`${baseUrl}/v1.0/bulk?bulk_id=${bulkId}&apikey=${apiKey}`)).json()) as BulkAnswer;

      // Partway: at least 10% done, then kill -9.
      const partway = await until("10% of the job", retrieve, (b) => b._meta.urls_completed >= N / 10, 30_000, [first]);
      first.process.kill("SIGKILL");
      expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
      expect(partway._meta.completed).toBe(false);
      expect(partway._meta.urls_completed).toBeLessThanOrEqual(N * 0.8);

      // What survived the kill: the URLs answered before it, and the job's progress matching them.
      const db = new Database(env.DATABASE_URL!.slice("file:".length));
      const doneAtKill = new Set(
        db
          .prepare<[string], { url: string }>("SELECT url FROM bulk_url WHERE job_id = ? AND completed_at IS NOT NULL")
          .all(bulkId)
          .map((r) => r.url),
      );
      const jobAtKill = db.prepare<[string], { urls_completed: number }>("SELECT urls_completed FROM bulk_job WHERE id = ?").get(bulkId)!;
      db.close();
      expect(doneAtKill.size).toBeGreaterThanOrEqual(partway._meta.urls_completed);
      expect(doneAtKill.size).toBeLessThan(N);
      expect(jobAtKill.urls_completed).toBe(doneAtKill.size);

      // Start again with the same configuration: the job resumes where it stopped.
      const second = startService();
      await waitUp(second);
      const resumed = await retrieve();
      expect(resumed._meta.urls_completed).toBeGreaterThanOrEqual(doneAtKill.size);
      const done = await until("the job to complete after the restart", retrieve, (b) => b._meta.completed, 60_000, [second]);

      expect(done._meta).toEqual({ urls_completed: N, urls_queued: N, completed: true, bulk_id: bulkId });
      const data = done.data as Record<string, Record<string, unknown>>;
      expect(Object.keys(data)).toHaveLength(N);
      expect(Object.keys(data).sort()).toEqual([...urls].sort());
      for (const url of urls) {
        const { facebook, pinterest } = deriveCounts(url);
        expect(data[url]!.Pinterest).toBe(pinterest);
        expect(data[url]!.Facebook).toMatchObject({
          ...facebook,
          total_count: facebook.reaction_count + facebook.comment_count + facebook.share_count + facebook.comment_plugin_count,
        });
      }

      // Answered once: the restarted service asked the networks only for the URLs not answered before the kill,
      // each once (its sandbox is new, so its counters start at zero).
      const stats = (await (await fetch(`http://127.0.0.1:${sandboxPort}/__sandbox/stats`)).json()) as {
        facebookByUrl: Record<string, number>;
        pinterestByUrl: Record<string, number>;
      };
      const remaining = urls.filter((u) => !doneAtKill.has(u)).sort();
      for (const byUrl of [stats.facebookByUrl, stats.pinterestByUrl]) {
        expect(Object.keys(byUrl).sort()).toEqual(remaining);
        expect(Object.values(byUrl).every((calls) => calls === 1)).toBe(true);
      }

      // Counted once.
      const quota = await (await fetch(`${baseUrl}/v1.0/quota?apikey=${apiKey}`)).json();
      expect(quota).toMatchObject({ quota_used_today: N, plan: "business" });
      const usage = await (await fetch(`${baseUrl}/v1.0/usage?apikey=${apiKey}`)).json();
      expect(usage[todayUtc()]).toMatchObject({ date: todayUtc(), queries: N });
    },
    120_000,
  );
});
