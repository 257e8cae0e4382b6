import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** One POST that arrived, as sent. */
export interface ReceivedWebhook {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived, on the real clock. */
  receivedAt: number;
}

/** How to answer: a status (after `delayMs`), with a Location for redirects; or `hold`, never answering. */
export type Reply = { status: number; delayMs?: number; location?: string } | "hold";

export interface WebhookReceiver {
  port: number;
  /** `http://127.0.0.1:port` + path. */
  url(path?: string): string;
  /** Every request, in order of arrival. */
  requests: ReceivedWebhook[];
  /** Requests arrived at `path`. */
  at(path: string): ReceivedWebhook[];
  /** How requests to `path` are answered from now on (default: 204 at once). */
  answer(path: string, reply: Reply | ((request: ReceivedWebhook) => Reply)): void;
  /** Requests being held unanswered now. */
  readonly holding: number;
  /** Answers the held requests with `status`. */
  release(status?: number): void;
  /** Resolves once `count` requests arrived at `path`, within `timeoutMs`. */
  waitFor(path: string, count?: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** A real HTTP receiver on loopback that records what webhook senders POST and answers as told. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedWebhook[] = [];
  const replies = new Map<string, Reply | ((request: ReceivedWebhook) => Reply)>();
  const held = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { path: req.url ?? "/", method: req.method ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), receivedAt: Date.now() };
      requests.push(request);
      const planned = replies.get(request.path) ?? { status: 204 };
      const reply = typeof planned === "function" ? planned(request) : planned;
      if (reply === "hold") {
        held.add(res);
        res.on("close", () => held.delete(res));
        return;
      }
      const send = () => res.writeHead(reply.status, reply.location ? { location: reply.location } : {}).end();
      if (!reply.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, reply.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const at = (path: string) => requests.filter((r) => r.path === path);
  return {
    port,
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    requests,
    at,
    answer: (path, reply) => void replies.set(path, reply),
    get holding() {
      return held.size;
    },
    release(status = 204) {
      for (const res of held) res.writeHead(status).end();
      held.clear();
    },
    async waitFor(path, count = 1, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (at(path).length < count) {
        if (Date.now() > deadline) throw new Error(`${at(path).length} of ${count} webhooks arrived at ${path} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return at(path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Checks a request's signature as a receiver would, with the standardwebhooks package, and answers its parsed
 * body (throws WebhookVerificationError otherwise). The package also refuses timestamps over five minutes from
 * its clock: `at` is that clock (default the real one), so a test that moves its own clock checks against it.
 */
export function verifyWebhook(request: ReceivedWebhook, secret: string, at = Date.now()): unknown {
  const realNow = Date.now;
  Date.now = () => at;
  try {
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
  } finally {
    Date.now = realNow;
  }
}
