import http from "node:http";

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

function refuse(socket: { end(data: string): unknown }, status: string, type: string, message: string): void {
  const body = JSON.stringify({ Error: message, Type: type });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The HTTP server every entry point (and the tests) serves through. */
export function createHttpServer(listener: http.RequestListener): http.Server {
  const handle: http.RequestListener = (req, res) => {
    const target = originFormTarget(req.url ?? "");
    if (target === null) {
      res.writeHead(400, { "Content-Type": "application/json; charset=utf-8", "X-Content-Type-Options": "nosniff", Connection: "close" });
      res.end(JSON.stringify({ Error: "The request target must be a path, such as /v1.0/?url=…", Type: "bad_request" }));
      return;
    }
    req.url = target;
    listener(req, res);
  };
  const server = http.createServer(handle);
  // A client that sends `Expect: 100-continue` (curl does for large bodies) waits before sending its body. It is
  // asked for it only once the body is first read, so an answer given on the headers alone (a bad key, a body
  // too large, a foreign Origin) spares both sides the body, and no reset can swallow that answer.
  server.on("checkContinue", (req: http.IncomingMessage, res: http.ServerResponse) => {
    // Answered without asking, the client never sends its body: the connection then cannot carry another request.
    res.setHeader("Connection", "close");
    const read = req._read.bind(req);
    let asked = false;
    req._read = (size: number) => {
      if (!asked && !res.headersSent) res.writeContinue();
      asked = true;
      read(size);
    };
    handle(req, res);
  });
  // Longer than common load balancers' idle timeouts (60 s), so they never reuse a socket we just closed.
  server.keepAliveTimeout = 65_000;
  // Requests Node's HTTP parser refuses (bytes not allowed in a request line, oversized headers) never reach
  // the app: answer them with the API's error object too, then close.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
    refuse(
      socket,
      tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request",
      tooLarge ? "request_too_large" : "bad_request",
      tooLarge ? "The request headers or URL are too large." : "The request could not be parsed as HTTP.",
    );
  });
  return server;
}
