import { z } from "zod";
import type { TumblrValues } from "../../lib/counts/more-networks.ts";
import { parseJson, withUpstream, type UpstreamAdapter } from "./upstream.ts";

export interface TumblrAdapterOptions {
  /** e.g. https://api.tumblr.com */
  baseUrl: string;
  timeoutMs: number;
}

/** Tumblr's envelope: `meta.status` mirrors the HTTP status; `response` is `[]` when there is nothing to give. */
const envelopeSchema = z.object({
  meta: z.object({ status: z.number().int(), msg: z.string().optional() }),
  response: z.unknown(),
});
const statsSchema = z.object({ note_count: z.unknown() });
const notesSchema = z.number().int().min(0);

/** `GET {base}/v2/share/stats?url=U` → `{"meta":{"status":200},"response":{"note_count":N}}`. */
export function createTumblrAdapter(options: TumblrAdapterOptions): UpstreamAdapter<"tumblr"> {
  const { baseUrl, timeoutMs } = options;

  const fetchCount = (url: string, signal?: AbortSignal) =>
    withUpstream<TumblrValues>(timeoutMs, signal, async (call) => {
      const answer = await call.fetch(`${baseUrl}/v2/share/stats?url=${encodeURIComponent(url)}`);
      const failure = call.status(answer);
      if (failure) return failure;

      const envelope = envelopeSchema.safeParse(parseJson(answer.text));
      if (!envelope.success) return call.fail("failed", "answer is not Tumblr's meta/response envelope");
      const { meta, response } = envelope.data;
      if (meta.status !== 200) {
        const detail = `meta.status ${meta.status}${meta.msg ? `: ${meta.msg}` : ""}`;
        return call.fail(meta.status === 429 ? "throttled" : "failed", detail, { code: meta.status });
      }
      const noteCount = statsSchema.safeParse(response).data?.note_count;
      if (noteCount == null) return call.fail("unreported", "no note_count in the response");
      const notes = notesSchema.safeParse(noteCount);
      if (!notes.success) return call.fail("failed", `note_count is not a count: ${JSON.stringify(noteCount).slice(0, 40)}`);
      return call.ok({ notes: notes.data });
    });

  return { name: "tumblr", fetchCount };
}
