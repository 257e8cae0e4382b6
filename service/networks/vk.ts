import type { VkValues } from "../../lib/counts/more-networks.ts";
import { withUpstream, type UpstreamAdapter } from "./upstream.ts";

export interface VkAdapterOptions {
  /** e.g. https://vk.com */
  baseUrl: string;
  timeoutMs: number;
}

/** VK answers a line of JavaScript for its share button; the index echoes the request's. Anything else is garbage. */
const ANSWER = /^\s*VK\.Share\.count\(\s*1\s*,\s*(\d{1,15})\s*\)\s*;?\s*$/;

/** `GET {base}/share.php?act=count&index=1&url=U` → `VK.Share.count(1, N);`. */
export function createVkAdapter(options: VkAdapterOptions): UpstreamAdapter<"vk"> {
  const { baseUrl, timeoutMs } = options;

  const fetchCount = (url: string, signal?: AbortSignal) =>
    withUpstream<VkValues>(timeoutMs, signal, async (call) => {
      const answer = await call.fetch(`${baseUrl}/share.php?act=count&index=1&url=${encodeURIComponent(url)}`);
      const failure = call.status(answer);
      if (failure) return failure;
      const count = ANSWER.exec(answer.text)?.[1];
      if (count === undefined) return call.fail("failed", `answer is not VK.Share.count(1, N): ${JSON.stringify(answer.text.slice(0, 40))}`);
      return call.ok({ count: Number(count) });
    });

  return { name: "vk", fetchCount };
}
