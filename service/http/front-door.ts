import http from "node:http";
import type { Duplex } from "node:stream";
import { isHostHeader } from "../../lib/urls/host-header.ts";
import { apiErrors, type ApiError } from "./errors.ts";
import { assignRequestId } from "./x-request-id.ts";

/**
 * The path and query of a request target. Origin-form (`/v1.0/?url=…`) as is; absolute-form
 * (`http://host/v1.0/…`, which HTTP/1.1 servers must accept) becomes the same request on this host, so nothing
 * built from the target (a redirect) can point elsewhere. Null for anything else (`*`, an authority).
 */
export function originFormTarget(target: string): string | null {
  if (target.startsWith("/")) return target;
  const absolute = /^https?:\/\/[^/?#]*(.*)$/is.exec(target);
  if (!absolute) return null;
  const rest = absolute[1]!;
  return rest.startsWith("/") ? rest : `/${rest}`;
}

/** An answer written on the bare socket (no request object to answer through), closing the connection. */
function refuse(socket: { end(data: string): unknown }, error: ApiError): void {
  const body = JSON.stringify(error.body());
  socket.end(
    `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A body answered early is read off while it keeps coming (cut once nothing arrived for this long)… */
const LINGER_IDLE_MS = 5_000;
/** …and for no longer than this in all, as nginx's lingering_timeout and lingering_time… */
const LINGER_TOTAL_MS = 30_000;
/** …nor past this many bytes: a client still sending that much after its answer has had its chance to read it. */
const LINGER_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A request answered before its body was read to the end (refused on its key, its size, its Origin; stopped
 * past a limit) still has the rest of its body on the way. Closing at once would make the client's system
 * reset the connection and throw away the answer it had not read yet; instead the rest is read off and dropped
 * once the answer is out, and the connection is cut only once the body stalls, takes too long or goes on past
 * LINGER_MAX_BYTES. A body that ends leaves the connection free for the next request.
 */
function lingerAfterAnswer(req: http.IncomingMessage, res: http.ServerResponse): void {
  // Without Content-Length or Transfer-Encoding there is no body (most requests): nothing can be left to read.
  if (req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined) return;
  // Before Node's own listener, which would dump an unread body: its bytes would then bypass the count below.
  res.prependOnceListener("finish", () => {
    if (req.complete) return;
    const { socket } = req;
    const since = Date.now();
    let bytesRead = socket.bytesRead;
    // The socket's byte count says whether the body still comes.
    const watch = setInterval(() => {
      if (req.complete) return clearInterval(watch);
      if (socket.bytesRead === bytesRead || Date.now() - since >= LINGER_TOTAL_MS) return socket.destroy();
      bytesRead = socket.bytesRead;
    }, LINGER_IDLE_MS).unref();
    socket.once("close", () => clearInterval(watch));
    // read() rather than resume(): a body a route began to read (a web stream over it) has a `readable`
    // listener, which keeps resume() from flowing.
    let drained = 0;
    const discard = () => {
      for (let chunk: Buffer | null; (chunk = req.read()) !== null; ) {
        drained += chunk.length;
        if (drained > LINGER_MAX_BYTES) return void socket.destroy();
      }
    };
    req.on("readable", discard);
    discard();
  });
}

function answer(res: http.ServerResponse, error: ApiError): void {
  const body = JSON.stringify(error.body());
  res.writeHead(error.status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "X-Content-Type-Options": "nosniff",
  });
  res.end(body);
}

/** The address the client reached, as a Host header (what an HTTP/1.0 client, which sends none, asked). */
function localHost(socket: http.IncomingMessage["socket"]): string {
  const address = socket.localAddress ?? "localhost";
  return `${address.includes(":") ? `[${address}]` : address}:${socket.localPort ?? 80}`;
}

/**
 * What is wrong with a request before any route sees it, or null. URLs are built from its target and its Host,
 * so neither may be anything but a path and a host; a backslash in the path is refused, as browsers read it as a
 * slash (`/\\evil.example` would otherwise name another host to whatever builds a redirect from it).
 */
function requestProblem(req: http.IncomingMessage): string | null {
  const target = originFormTarget(req.url ?? "");
  if (target === null) return "The request target must be a path, such as /v1.0/?url=….";
  req.url = target;
  const backslash = target.indexOf("\\");
  const query = target.indexOf("?");
  if (backslash !== -1 && (query === -1 || backslash < query)) return "The request path may not contain a backslash.";
  const host = req.headers.host;
  if (host === undefined) {
    if (req.httpVersion !== "1.0") return "An HTTP/1.1 request needs a Host header.";
    req.headers.host = localHost(req.socket);
  } else if (!isHostHeader(host)) {
    return "The Host header is not a host name.";
  }
  return null;
}

/** The HTTP server every entry point (and the tests) serves through. */
export function createHttpServer(listener: http.RequestListener): http.Server {
  const handle: http.RequestListener = (req, res) => {
    assignRequestId(req, res);
    lingerAfterAnswer(req, res);
    const problem = requestProblem(req);
    if (problem !== null) return answer(res, apiErrors.badRequest(problem));
    listener(req, res);
  };
  // Host is checked above, with an answer in the API's format (Node's own check answers an empty 400).
  const server = http.createServer({ requireHostHeader: false }, handle);
  // A client that half-closes its side once its request is sent (`nc -N`, some scripts) still gets its answer
  // (and is not charged for one it never reads). Node's switch for it is old and untyped; a test holds it.
  Object.assign(server, { httpAllowHalfOpen: true });
  // A client that sends `Expect: 100-continue` (curl does for large bodies) waits before sending its body. It is
  // asked for it only once the body is first read, so an answer given on the headers alone (a bad key, a body
  // too large, a foreign Origin) spares both sides the body, and no reset can swallow that answer.
  server.on("checkContinue", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const read = req._read.bind(req);
    let asked = false;
    req._read = (size: number) => {
      if (!asked && !res.headersSent) res.writeContinue();
      asked = true;
      read(size);
    };
    // Answered without asking, the client never sends its body: the connection then cannot carry another request.
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
    res.writeHead = ((...args: unknown[]) => {
      if (!asked) res.setHeader("Connection", "close");
      return writeHead(...args);
    }) as typeof res.writeHead;
    handle(req, res);
  });
  // Longer than common load balancers' idle timeouts (60 s), so they never reuse a socket we just closed.
  server.keepAliveTimeout = 65_000;
  // Requests Node's HTTP parser refuses (bytes not allowed in a request line, oversized headers) never reach
  // the app: answer them with the API's error object too, then close.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    refuse(socket, error.code === "HPE_HEADER_OVERFLOW" ? apiErrors.headersTooLarge() : apiErrors.badRequest("The request could not be parsed as HTTP."));
  });
  // Requests this server does not serve are answered, not dropped: an Expect other than 100-continue, CONNECT
  // (a proxy's verb) and protocol upgrades (WebSocket: neither the API nor the dashboard speaks one).
  server.on("checkExpectation", (_req: http.IncomingMessage, res: http.ServerResponse) =>
    answer(res, apiErrors.expectationFailed()),
  );
  server.on("connect", (_req: http.IncomingMessage, socket: Duplex) =>
    refuse(socket, apiErrors.connectNotSupported()),
  );
  server.on("upgrade", (_req: http.IncomingMessage, socket: Duplex) =>
    refuse(socket, apiErrors.badRequest("Protocol upgrades (WebSocket) are not supported.")),
  );
  return server;
}
