import { getJson, log, sleep } from "./support.ts";

export interface BulkAnswer {
  data: Record<string, unknown> | unknown[];
  _meta: { urls_completed: number; urls_queued: number; completed: boolean; bulk_id: string; paused_until?: string };
}

/**
 * Submits `urls` as one bulk job and polls (every `pollMs`) until it completes; checks that every URL was
 * answered and counted once (the account must have used no quota before). Resolves with the wall time.
 */
export async function runBulkJob(
  base: string,
  apiKey: string,
  urls: string[],
  options: { pollMs: number; deadlineMs: number },
): Promise<{ wallMs: number; dataKeys: number; quotaUsed: number; problems: string[] }> {
  const started = performance.now();
  const submitted = await getJson<{ count: number; bulk_id: string }>(`${base}/v1.0/bulk?apikey=${apiKey}`, {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: urls.join("\n"),
  });
  if (submitted.count !== urls.length) throw new Error(`the job accepted ${submitted.count} URLs, not ${urls.length}`);
  log(`bulk_id ${submitted.bulk_id} accepted after ${(performance.now() - started).toFixed(0)} ms`);
  const pollUrl = `${base}/v1.0/bulk?bulk_id=${submitted.bulk_id}&apikey=${apiKey}`;
  let answer: BulkAnswer;
  let lastLog = started;
  for (;;) {
    answer = await getJson<BulkAnswer>(pollUrl);
    if (answer._meta.completed) break;
    const now = performance.now();
    if (now - started > options.deadlineMs) throw new Error(`the job did not complete in ${((now - started) / 1000).toFixed(0)} s`);
    if (answer._meta.paused_until) throw new Error(`the job is paused until ${answer._meta.paused_until}`);
    if (now - lastLog >= 1000) {
      lastLog = now;
      log(`${((now - started) / 1000).toFixed(1)} s: ${answer._meta.urls_completed}/${answer._meta.urls_queued}`);
    }
    await sleep(options.pollMs);
  }
  const wallMs = performance.now() - started;
  log(`completed after ${(wallMs / 1000).toFixed(2)} s`);
  const dataKeys = Array.isArray(answer.data) ? 0 : Object.keys(answer.data).length;
  const quotaUsed = (await getJson<{ quota_used_today: number }>(`${base}/v1.0/quota?apikey=${apiKey}`)).quota_used_today;
  const problems = [
    ...(dataKeys === urls.length ? [] : [`data has ${dataKeys} keys, expected ${urls.length}`]),
    ...(quotaUsed === urls.length ? [] : [`quota_used_today is ${quotaUsed}, expected ${urls.length}`]),
  ];
  return { wallMs, dataKeys, quotaUsed, problems };
}
