import { z } from "zod";
import type { OkValues } from "../../lib/counts/more-networks.ts";
import { parseJson, withUpstream, type UpstreamAdapter } from "./upstream.ts";

export interface OkAdapterOptions {
  /** e.g. https://connect.ok.ru */
  baseUrl: string;
  timeoutMs: number;
}

/** OK.ru sends the count as a string of digits; a number is accepted too. */
const answerSchema = z.object({
  count: z.union([
    z.number().int().min(0),
    z
      .string()
      .regex(/^\d{1,15}$/)
      .transform(Number),
  ]),
});

/** `GET {base}/dk?st.cmd=extLike&tp=json&ref=U` → `{"count":"N"}`. */
export function createOkAdapter(options: OkAdapterOptions): UpstreamAdapter<"ok"> {
  const { baseUrl, timeoutMs } = options;

  const fetchCount = (url: string, signal?: AbortSignal) =>
    withUpstream<OkValues>(timeoutMs, signal, async (call) => {
      const answer = await call.fetch(`${baseUrl}/dk?st.cmd=extLike&tp=json&ref=${encodeURIComponent(url)}`);
      const failure = call.status(answer);
      if (failure) return failure;
      const parsed = answerSchema.safeParse(parseJson(answer.text));
      if (!parsed.success) return call.fail("failed", "answer is not {\"count\": N}");
      return call.ok({ count: parsed.data.count });
    });

  return { name: "ok", fetchCount };
}
