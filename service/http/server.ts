import http from "node:http";

/** The HTTP server every entry point (and the tests) serves through. */
export function createHttpServer(listener: http.RequestListener): http.Server {
  const server = http.createServer(listener);
  // Longer than common load balancers' idle timeouts (60 s), so they never reuse a socket we just closed.
  server.keepAliveTimeout = 65_000;
  // Requests Node's HTTP parser refuses (bytes not allowed in a request line, oversized headers) never reach
  // the app: answer them with the API's error object too, then close.
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
    const body = JSON.stringify({
      Error: tooLarge ? "The request headers or URL are too large." : "The request could not be parsed as HTTP.",
      Type: tooLarge ? "request_too_large" : "bad_request",
    });
    socket.end(
      `HTTP/1.1 ${tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request"}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
